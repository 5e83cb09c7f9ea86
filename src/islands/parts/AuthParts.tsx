import { useEffect, useId, useRef, type MouseEvent, type ReactNode, type SubmitEvent } from 'react';
import { openAuthPopup } from '../../lib/stores/auth.ts';
import { AUTOFOCUS_ATTRIBUTE } from './Dialog.tsx';

/**
 * Inside the pop-up the links between sign-in and sign-up switch the dialog's view instead of
 * leaving the page, and hand focus to the new view, since the link itself disappears with the old one.
 */
export function switchPopupView(event: MouseEvent<HTMLAnchorElement>, view: 1 | 2): void {
  event.preventDefault();
  const dialog = event.currentTarget.closest('dialog');
  openAuthPopup(view);
  requestAnimationFrame(() => {
    const candidates = dialog?.querySelectorAll<HTMLElement>(
      `[${AUTOFOCUS_ATTRIBUTE}], [role="tab"][aria-selected="true"]`,
    );
    Array.from(candidates ?? [])
      .find((element) => element.closest('[hidden]') === null)
      ?.focus();
  });
}

/** The busy indicator of the sign-in and sign-up buttons; each form styles it through its class. */
export function Spinner({ className }: { className: string }): ReactNode {
  return <span className={className} aria-hidden="true" />;
}

/** Google's mark on the social sign-in and sign-up buttons (decorative: the text names the provider). */
export function GoogleLogo(): ReactNode {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 48 48" width="18" height="18">
      <path
        fill="#FFC107"
        d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 13 4 4 13 4 24s9 20 20 20 20-9 20-20c0-1.3-.1-2.6-.4-3.9z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z"
      />
    </svg>
  );
}

export interface GoogleEmailFormProps {
  /** The heading next to Google's mark, which also names the form for assistive technology. */
  title: string;
  /** Why the visitor types an address here instead of seeing Google's window. */
  hint: string;
  submitLabel: string;
  loading: boolean;
  onSubmit: (email: string) => void;
  onCancel: () => void;
}

/**
 * The local Google sign-in and sign-up: the Auth emulator has no Google window, so the visitor
 * names the Google account instead. Both screens ask the same way; focus moves to its field as it appears.
 */
export function GoogleEmailForm({
  title,
  hint,
  submitLabel,
  loading,
  onSubmit,
  onCancel,
}: GoogleEmailFormProps): ReactNode {
  const baseId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const email = new FormData(event.currentTarget).get('googleEmail');
    onSubmit(typeof email === 'string' ? email : '');
  };

  return (
    <form className="auth-form__google-form" noValidate onSubmit={submit} aria-labelledby={`${baseId}-title`}>
      <p id={`${baseId}-title`} className="auth-form__google-title">
        <GoogleLogo /> {title}
      </p>
      <p id={`${baseId}-hint`} className="auth-form__hint">
        {hint}
      </p>
      <div className="auth-form__field">
        <label htmlFor={`${baseId}-email`}>Google account email</label>
        <input
          ref={input}
          id={`${baseId}-email`}
          name="googleEmail"
          type="email"
          inputMode="email"
          autoComplete="email"
          aria-describedby={`${baseId}-hint`}
        />
      </div>
      <div className="auth-form__google-actions">
        <button type="submit" className="btn btn-primary" disabled={loading} aria-busy={loading}>
          {loading ? <Spinner className="auth-form__spinner" /> : null}
          {submitLabel}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={loading}
          onClick={() => {
            onCancel();
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
