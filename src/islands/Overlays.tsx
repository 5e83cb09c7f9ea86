import { useStore } from '@nanostores/react';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { $auth } from '../lib/stores/auth.ts';
import { exposeStores } from '../lib/stores/handle.ts';
import { startIdleWatch, startRouteLoadingTracking } from '../lib/stores/ui.ts';
import { captureUtms } from '../lib/utms.ts';
import { AuthDialog } from './parts/AuthDialog.tsx';
import { FlashMessage } from './parts/FlashMessage.tsx';
import { PremiumDialog } from './parts/PremiumDialog.tsx';
import { SessionInactiveDialog } from './parts/SessionInactiveDialog.tsx';
import { Snackbars } from './parts/Snackbars.tsx';
// The pop-up forms' styles come with the page (they are small); only their code loads on demand,
// since a style sheet split off with lazily loaded code is not served on its own.
import './parts/Questionnaire.css';
import './parts/AuthForm.css';

interface PopupForms {
  SignInForm: ComponentType<{ variant: 'popup' }>;
  SignUpForm: ComponentType<{ variant: 'popup' }>;
}

async function loadPopupForms(): Promise<PopupForms> {
  const [signIn, signUp] = await Promise.all([import('./SignInForm.tsx'), import('./SignUpForm.tsx')]);
  return { SignInForm: signIn.SignInForm, SignUpForm: signUp.SignUpForm };
}

const AUTH_POPUP_KEYS: ['authPopup'] = ['authPopup'];

/**
 * The pop-up's forms, loaded the first time the pop-up opens, so the pages that never show it (most
 * of them) do not ship the sign-in and sign-up code with every visit. Until they arrive (a moment on
 * the first opening) the pop-up says it is loading; a failed load says so and is retried on the next
 * opening.
 */
function usePopupForms(): { forms: PopupForms | undefined; failed: boolean } {
  const { authPopup } = useStore($auth, { keys: AUTH_POPUP_KEYS, ssr: 'initial' });
  const [forms, setForms] = useState<PopupForms>();
  const [failed, setFailed] = useState(false);
  const wanted = authPopup !== false;
  useEffect(() => {
    if (!wanted || forms) return;
    let current = true;
    setFailed(false);
    loadPopupForms().then(
      (loaded) => {
        if (current) setForms(loaded);
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [wanted, forms]);
  useEffect(() => {
    // The dialog put focus somewhere before the forms existed; the form's marked field takes it now.
    if (!forms) return;
    const panel = document.querySelector('dialog[open] [role="tabpanel"]:not([hidden])');
    const active = document.activeElement;
    if (!panel || (active instanceof HTMLElement && panel.contains(active))) return;
    panel.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [forms]);
  return { forms, failed };
}

function FormPlaceholder({ failed }: { failed: boolean }): ReactNode {
  return failed ? (
    <p className="auth-dialog__text" role="alert">
      The form could not be loaded. Please check your connection, then close this window and try again.
    </p>
  ) : (
    <p className="auth-dialog__text" role="status">
      Loading…
    </p>
  );
}

/**
 * Everything that floats above the pages, in one island the layout mounts once and persists
 * across navigations, so an open dialog or a pending message survives a page change. Its parts
 * read their stores with `ssr: 'initial'`: a message raised before this island hydrates (a page
 * script reporting an `error` query parameter, say) must not make hydration mismatch; it shows
 * on the render right after.
 */
export function Overlays(): ReactNode {
  const { forms, failed } = usePopupForms();
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
      <AuthDialog
        signInForm={forms ? <forms.SignInForm variant="popup" /> : <FormPlaceholder failed={failed} />}
        signUpForm={forms ? <forms.SignUpForm variant="popup" /> : <FormPlaceholder failed={failed} />}
      />
    </>
  );
}
