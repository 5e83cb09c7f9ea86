import type { ClientDirective } from 'astro';
import { DEMAND_EVENT } from './demand.ts';

/**
 * `client:demand="name"`: hydrates the island once the page raises that demand (`raiseDemand`),
 * and at once when it was raised before the island arrived. Registered in astro.config.mjs; Astro
 * bundles it into every page on its own, so it imports nothing but the event's name.
 */
const demand: ClientDirective = (load, options) => {
  const name = options.value;
  const hydrate = (): void => {
    void load().then((run) => run());
  };
  if (window.astroDemands?.has(name) === true) {
    hydrate();
    return;
  }
  const listener = (event: Event): void => {
    if (!(event instanceof CustomEvent) || event.detail !== name) return;
    window.removeEventListener(DEMAND_EVENT, listener);
    hydrate();
  };
  window.addEventListener(DEMAND_EVENT, listener);
};

export default demand;
