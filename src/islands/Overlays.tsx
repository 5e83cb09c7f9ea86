import { useEffect, type ReactNode } from 'react';
import { exposeStores } from '../lib/stores/handle.ts';
import { startIdleWatch, startRouteLoadingTracking } from '../lib/stores/ui.ts';
import { captureUtms } from '../lib/utms.ts';
import { AuthDialog } from './AuthDialog.tsx';
import { FlashMessage } from './FlashMessage.tsx';
import { PremiumDialog } from './PremiumDialog.tsx';
import { SessionInactiveDialog } from './SessionInactiveDialog.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';
import { Snackbars } from './Snackbars.tsx';

/**
 * Everything that floats above the pages, in one island the layout mounts once and persists
 * across navigations, so an open dialog or a pending message survives a page change. Its parts
 * read their stores with `ssr: 'initial'`: a message raised before this island hydrates (a page
 * script reporting an `error` query parameter, say) must not make hydration mismatch; it shows
 * on the render right after.
 */
export function Overlays(): ReactNode {
  useEffect(() => {
    startRouteLoadingTracking();
    startIdleWatch();
    exposeStores();
    captureUtms();
  }, []);

  return (
    <>
      <FlashMessage />
      <Snackbars />
      <PremiumDialog />
      <SessionInactiveDialog />
      <AuthDialog signInForm={<SignInForm variant="popup" />} signUpForm={<SignUpForm variant="popup" />} />
    </>
  );
}
