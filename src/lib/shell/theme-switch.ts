import { $darkMode, $themeMode, setThemeMode, startTheme, toggleDarkMode } from '../stores/theme.ts';

/*
 * The header's theme switch (src/components/header/ThemeSwitch.astro) on the theme store: the
 * dark-mode switch picks the opposite of what is shown; the system button follows the operating
 * system, or pins what is shown now. The icons follow `<html data-theme>` through CSS.
 */

function render(): void {
  const system = $themeMode.get() === 'system';
  const dark = $darkMode.get();
  for (const toggle of document.querySelectorAll('[data-theme-toggle]')) {
    toggle.setAttribute('aria-checked', String(dark));
  }
  for (const button of document.querySelectorAll<HTMLElement>('[data-theme-system]')) {
    button.setAttribute('aria-pressed', String(system));
    button.title = system ? 'Following the system theme' : 'Use system theme';
  }
}

let started = false;

/** Starts the theme store and wires the switch to it. Browser only; the first call acts. */
export function startThemeSwitch(): void {
  if (started) return;
  started = true;
  startTheme();
  $themeMode.subscribe(render);
  $darkMode.subscribe(render);
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('[data-theme-toggle]')) {
      toggleDarkMode();
    } else if (target?.closest('[data-theme-system]')) {
      const dark = $darkMode.get();
      setThemeMode($themeMode.get() === 'system' ? (dark ? 'dark' : 'light') : 'system');
    }
  });
  document.addEventListener('astro:after-swap', render);
}
