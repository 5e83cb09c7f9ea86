import type { ReactNode, SubmitEvent } from 'react';
import './ContactForm.css';

/*
 * The parts the site's contact forms (the enterprise enquiry, the help center's question) share:
 * a labelled field with its hint and error, the honeypot, and one stylesheet (`contact-form__*`).
 */

/** The honeypot's name: a field people never see, which form-filling bots fill in. */
export const HONEYPOT = 'website';

/** Reads only the honeypot from a submitted form; every other value lives in the form's store. */
export function honeypotOf(event: SubmitEvent<HTMLFormElement>): string {
  const honeypot = new FormData(event.currentTarget).get(HONEYPOT);
  return typeof honeypot === 'string' ? honeypot : '';
}

interface FieldProps {
  id: string;
  label: string;
  /** A line under the label saying what is wanted. */
  hint?: string | undefined;
  error: string | undefined;
  children: (describedBy: string | undefined) => ReactNode;
}

/**
 * A labelled field with its hint and its error, the control pointing at both through
 * aria-describedby, so a screen reader reads the problem along with the field.
 */
export function ContactField({ id, label, hint, error, children }: FieldProps): ReactNode {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint === undefined ? '' : hintId, error === undefined ? '' : errorId]
    .filter((part) => part !== '')
    .join(' ');
  return (
    <div className="contact-form__field">
      <label htmlFor={id}>{label}</label>
      {hint === undefined ? null : (
        <p id={hintId} className="contact-form__hint">
          {hint}
        </p>
      )}
      {children(describedBy === '' ? undefined : describedBy)}
      {error === undefined ? null : (
        <p id={errorId} className="contact-form__error">
          {error}
        </p>
      )}
    </div>
  );
}
