import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import {
  APPLICATION_FIELDS,
  MAX_APPLICATION_LINKS,
  MIN_COVER_NOTE_LENGTH,
  type RoleChoice,
} from '../lib/job-application-form.ts';
import { AUTH_LINKS, SITE_NAME } from '../lib/routes.ts';
import {
  $jobApplication,
  prefillApplication,
  preloadApplicationRules,
  presetApplicationRole,
  resetApplication,
  setApplicationValue,
  submitApplication,
  type JobApplicationValues,
} from '../lib/stores/job-application.ts';
import { $user } from '../lib/stores/user.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import { ContactField, HONEYPOT, honeypotOf } from './parts/ContactField.tsx';

/** Reads only the honeypot from the submitted form; every other value lives in the store. */
function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  void submitApplication(honeypotOf(event));
}

interface SentProps {
  name: string;
  email: string;
  roleTitle: string;
  reference: string;
}

/** The sent state: the reference and what happens next, the heading focused so it is read out. */
function Sent({ name, email, roleTitle, reference }: SentProps): ReactNode {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const baseId = useId();
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return (
    <section className="contact-form contact-form--sent" aria-labelledby={`${baseId}-thanks`}>
      <h2 id={`${baseId}-thanks`} ref={headingRef} tabIndex={-1} className="contact-form__title">
        {firstName === '' ? 'Application received' : `Thank you, ${firstName}!`}
      </h2>
      <div role="status" className="contact-form__thanks">
        <p>
          Your application for <strong>{roleTitle}</strong> has reached the hiring team. Your reference is{' '}
          <strong className="contact-form__reference">{reference}</strong>; we sent a confirmation to{' '}
          <strong>{email.trim()}</strong>.
        </p>
      </div>
      <p className="contact-form__intro">
        A person on the team reads every application, and we reply to everyone within ten business days.
      </p>
      <button type="button" className="btn btn-secondary" onClick={resetApplication}>
        Apply for another role
      </button>
    </section>
  );
}

interface Props {
  /** Every open role, for the select. */
  roles: readonly RoleChoice[];
  /** The role of the page the form is on, chosen when the form opens. */
  roleId: string;
}

/**
 * A role page's application form: name, email, role, links (CV, profiles, code) and a cover note,
 * checked with the server's rules before sending. Errors show next to their fields and focus moves
 * to the first one; nothing typed is lost on any failure. Signed-in visitors find their name and
 * email filled in.
 */
export function JobApplicationForm({ roles, roleId }: Props): ReactNode {
  const { status, values, errors, message, attempt, reference, edited } = useStore($jobApplication);
  const user = useStore($user);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const fieldId = (field: string): string => `${baseId}-${field}`;
  const sending = status === 'sending';

  // The store outlives client-side navigations; a later visit starts with a clean form.
  useEffect(() => resetApplication, []);

  useEffect(() => {
    presetApplicationRole(roleId);
  }, [roleId]);

  useEffect(() => {
    prefillApplication(user);
  }, [user]);

  // After a refused submission, take the applicant to the first field that needs fixing.
  useEffect(() => {
    if (attempt === 0) return;
    const first = APPLICATION_FIELDS.find((field) => errors[field] !== undefined);
    if (first !== undefined) document.getElementById(fieldId(first))?.focus();
    // Only a new attempt moves focus: fixing a field must not pull the cursor away.
  }, [attempt]);

  if (status === 'sent') {
    const roleTitle = roles.find((role) => role.id === values.role)?.title ?? 'the role';
    return <Sent name={values.name} email={values.email} roleTitle={roleTitle} reference={reference} />;
  }

  const text = (field: Exclude<keyof JobApplicationValues, 'role'>) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] !== undefined,
    onChange: (event: { currentTarget: { value: string } }) => {
      setApplicationValue(field, event.currentTarget.value);
    },
  });

  return (
    <form
      className="contact-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={submit}
      onFocus={preloadApplicationRules}
    >
      <h2 id={titleId} className="contact-form__title">
        Apply for this role
      </h2>
      <p className="contact-form__intro">
        No cover letter template and no account needed: tell us who you are and link to your work.
      </p>

      <div className="contact-form__row">
        <ContactField id={fieldId('name')} label="Your name" error={errors.name}>
          {(describedBy) => (
            <input
              {...text('name')}
              type="text"
              autoComplete="name"
              required
              aria-describedby={describedBy}
            />
          )}
        </ContactField>

        <ContactField id={fieldId('email')} label="Email" error={errors.email}>
          {(describedBy) => (
            <input
              {...text('email')}
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              aria-describedby={describedBy}
            />
          )}
        </ContactField>
      </div>

      <ContactField id={fieldId('role')} label="Role" error={errors.role}>
        {(describedBy) => (
          <select
            id={fieldId('role')}
            name="role"
            value={values.role === '' && edited.role !== true ? roleId : values.role}
            required
            aria-invalid={errors.role !== undefined}
            aria-describedby={describedBy}
            onChange={(event) => {
              setApplicationValue('role', event.currentTarget.value);
            }}
          >
            <option value="">Choose a role</option>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.title}
              </option>
            ))}
          </select>
        )}
      </ContactField>

      <ContactField
        id={fieldId('links')}
        label="Links"
        hint={`Your CV, LinkedIn profile, GitHub or portfolio: one address per line, up to ${String(MAX_APPLICATION_LINKS)}.`}
        error={errors.links}
      >
        {(describedBy) => (
          <textarea
            {...text('links')}
            rows={3}
            required
            spellCheck={false}
            autoCapitalize="off"
            aria-describedby={describedBy}
          />
        )}
      </ContactField>

      <ContactField
        id={fieldId('coverNote')}
        label="Cover note"
        hint={`Why this role, and something you built or fixed that you are proud of (at least ${String(MIN_COVER_NOTE_LENGTH)} characters).`}
        error={errors.coverNote}
      >
        {(describedBy) => (
          <textarea {...text('coverNote')} rows={8} required aria-describedby={describedBy} />
        )}
      </ContactField>

      <p className="contact-form__hint">
        We use what you send only to consider you for roles at {SITE_NAME}, as the{' '}
        <a href={AUTH_LINKS.privacy}>Privacy Policy</a> describes.
      </p>

      {/* Hidden from people and assistive technology; only bots fill it in. */}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor={fieldId(HONEYPOT)}>Leave this field empty</label>
        <input id={fieldId(HONEYPOT)} name={HONEYPOT} type="text" tabIndex={-1} autoComplete="off" />
      </div>

      <button type="submit" className="btn btn-primary btn-lg" disabled={!hydrated || sending}>
        {sending ? 'Sending…' : 'Send application'}
      </button>
      <p role="status" aria-atomic="true" className="contact-form__message">
        {message}
      </p>
    </form>
  );
}
