import { useStore } from '@nanostores/react';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { AUTH_LINKS, SITE_NAME } from '../../lib/routes.ts';
import { $auth, closeAuthPopup, openAuthPopup } from '../../lib/stores/auth.ts';
import { Dialog } from './Dialog.tsx';
import './AuthDialog.css';

export interface AuthDialogProps {
  /**
   * The sign-in form; without it the view points to the full sign-in page. Mark the field that
   * should take focus when the dialog opens with `data-autofocus`.
   */
  signInForm?: ReactNode;
  /** The sign-up form; without it the view points to the full sign-up page. Focus works as above. */
  signUpForm?: ReactNode;
}

type View = 1 | 2;

const KEYS: ['authPopup'] = ['authPopup'];

const VIEWS: readonly { view: View; label: string; title: string }[] = [
  { view: 1, label: 'Sign in', title: `Sign in to ${SITE_NAME}` },
  { view: 2, label: 'Sign up', title: 'Sign up for a free API key' },
];

/**
 * Signing in or up without leaving the page (SPEC §2, pop-ups): `authPopup` 1 shows sign-in, 2
 * sign-up, and the tabs switch between them through the store so other code can open either view.
 */
export function AuthDialog({ signInForm, signUpForm }: AuthDialogProps): ReactNode {
  const { authPopup } = useStore($auth, { keys: KEYS, ssr: 'initial' });
  const current: View = authPopup === 2 ? 2 : 1;
  const baseId = useId();
  const tabs = useRef(new Map<View, HTMLButtonElement>());
  const tabId = (view: View): string => `${baseId}-tab-${view}`;
  const panelId = (view: View): string => `${baseId}-panel-${view}`;
  const title = VIEWS.find((entry) => entry.view === current)?.title ?? '';
  /** A form puts focus on its own first field; otherwise the selected tab takes it. */
  const currentHasForm = (current === 1 ? signInForm : signUpForm) !== undefined;

  const select = (view: View): void => {
    openAuthPopup(view);
    tabs.current.get(view)?.focus();
  };

  /** Arrow keys, Home and End move between the tabs, as in any tablist. */
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = VIEWS.findIndex((entry) => entry.view === current);
    let next: number;
    switch (event.key) {
      case 'ArrowRight':
        next = (index + 1) % VIEWS.length;
        break;
      case 'ArrowLeft':
        next = (index - 1 + VIEWS.length) % VIEWS.length;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = VIEWS.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    const target = VIEWS[next];
    if (target) select(target.view);
  };

  return (
    <Dialog open={authPopup !== false} onClose={closeAuthPopup} title={title} className="ui-dialog--wide">
      <div role="tablist" aria-label="Account" className="auth-dialog__tabs" onKeyDown={handleKeyDown}>
        {VIEWS.map(({ view, label }) => (
          <button
            key={view}
            ref={(element) => {
              if (element) tabs.current.set(view, element);
              else tabs.current.delete(view);
            }}
            type="button"
            role="tab"
            id={tabId(view)}
            aria-selected={view === current}
            aria-controls={panelId(view)}
            tabIndex={view === current ? 0 : -1}
            className="auth-dialog__tab"
            onClick={() => {
              select(view);
            }}
            data-autofocus={view === current && !currentHasForm ? true : undefined}
          >
            {label}
          </button>
        ))}
      </div>
      {VIEWS.map(({ view }) => (
        <div
          key={view}
          role="tabpanel"
          id={panelId(view)}
          aria-labelledby={tabId(view)}
          hidden={view !== current}
          className="auth-dialog__panel"
        >
          {view === 1 ? (signInForm ?? <SignInFallback />) : (signUpForm ?? <SignUpFallback />)}
        </div>
      ))}
    </Dialog>
  );
}

function SignInFallback(): ReactNode {
  return (
    <p className="auth-dialog__text">
      Sign in with your email or username and your password to reach your dashboard and API key.{' '}
      <a href={AUTH_LINKS.signIn} onClick={closeAuthPopup}>
        Go to the sign-in page
      </a>
    </p>
  );
}

function SignUpFallback(): ReactNode {
  return (
    <p className="auth-dialog__text">
      Create an account with your email and a password to get your free API key.{' '}
      <a href={AUTH_LINKS.signUp} onClick={closeAuthPopup}>
        Go to the sign-up page
      </a>
    </p>
  );
}
