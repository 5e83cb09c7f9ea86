import { $auth } from '../stores/auth.ts';
import { $snackbars } from '../stores/snackbar.ts';
import { $sessionInactive } from '../stores/ui.ts';
import { raiseDemand } from './demand.ts';

/** The demand that hydrates the overlays island (flash messages, snackbars, dialogs). */
export const OVERLAYS_DEMAND = 'overlays';

/** Whether anything floats above the page now or is about to: then the overlays must be live. */
function overlaysWanted(): boolean {
  const auth = $auth.get();
  return (
    auth.flashMessage !== null ||
    auth.premiumPopup !== false ||
    auth.authPopup !== false ||
    auth.customDialog !== null ||
    $snackbars.get().length > 0 ||
    $sessionInactive.get().open
  );
}

let started = false;

/**
 * Hydrates the overlays island the first time a message or a dialog has to show, so pages that
 * never show one load no framework for it. The island renders the stores as they are by then.
 */
export function startOverlays(): void {
  if (started) return;
  started = true;
  const check = (): void => {
    if (overlaysWanted()) raiseDemand(OVERLAYS_DEMAND);
  };
  $auth.subscribe(check);
  $snackbars.subscribe(check);
  $sessionInactive.subscribe(check);
}
