import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import {
  CONTACT_FIELDS,
  CONTACT_TOPICS,
  MIN_CONTACT_MESSAGE_LENGTH,
  type ContactTopic,
} from '../lib/contact-message-form.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $contactMessage,
  prefillContact,
  preloadContactRules,
  resetContact,
  setContactValue,
  submitContact,
  type ContactMessageValues,
} from '../lib/stores/contact-message.ts';
import { $user } from '../lib/stores/user.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import { ContactField, HONEYPOT, honeypotOf } from './parts/ContactField.tsx';

/** Reads only the honeypot from the submitted form; every other value lives in the store. */
function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  void submitContact(honeypotOf(event));
}

/** The sent state: the reference, where the confirmation went, with the heading focused so it is read out. */
function Sent({ name, email, reference }: { name: string; email: string; reference: string }): ReactNode {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const baseId = useId();
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return (
    <section className="contact-form contact-form--sent" aria-labelledby={`${baseId}-thanks`}>
      <h2 id={`${baseId}-thanks`} ref={headingRef} tabIndex={-1} className="contact-form__title">
        {firstName === '' ? 'Thank you!' : `Thank you, ${firstName}!`}
      </h2>
      <div role="status" className="contact-form__thanks">
        <p>
          We received your message. Your reference is{' '}
          <strong className="contact-form__reference">{reference}</strong>; we sent a confirmation to{' '}
          <strong>{email.trim()}</strong> and will answer there within two business days.
        </p>
      </div>
      <p className="contact-form__intro">
        Quote the reference if you write to us again about the same matter.
      </p>
      <button type="button" className="btn btn-secondary" onClick={resetContact}>
        Send another message
      </button>
    </section>
  );
}

/**
 * The contact page's form: name, email, topic and message, checked with the server's rules before
 * sending. Errors show next to their fields and focus moves to the first one; nothing typed is lost
 * on any failure. Signed-in visitors find their name and email filled in.
 */
export function ContactMessageForm(): ReactNode {
  const { status, values, errors, message, attempt, reference } = useStore($contactMessage);
  const user = useStore($user);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const fieldId = (field: string): string => `${baseId}-${field}`;
  const sending = status === 'sending';

  // The store outlives client-side navigations; a later visit starts with a clean form.
  useEffect(() => resetContact, []);

  useEffect(() => {
    prefillContact(user);
  }, [user]);

  // After a refused submission, take the visitor to the first field that needs fixing.
  useEffect(() => {
    if (attempt === 0) return;
    const first = CONTACT_FIELDS.find((field) => errors[field] !== undefined);
    if (first !== undefined) document.getElementById(fieldId(first))?.focus();
    // Only a new attempt moves focus: fixing a field must not pull the cursor away.
  }, [attempt]);

  if (status === 'sent') return <Sent name={values.name} email={values.email} reference={reference} />;

  const text = (field: Exclude<keyof ContactMessageValues, 'topic'>) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] !== undefined,
    onChange: (event: { currentTarget: { value: string } }) => {
      setContactValue(field, event.currentTarget.value);
    },
  });

  return (
    <form
      className="contact-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={submit}
      onFocus={preloadContactRules}
    >
      <h2 id={titleId} className="contact-form__title">
        Send us a message
      </h2>
      <p className="contact-form__intro">
        We answer by email within two business days. Never send your API key or your password; we do not need
        them to help you.
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

      <ContactField id={fieldId('topic')} label="Topic" error={errors.topic}>
        {(describedBy) => (
          <select
            id={fieldId('topic')}
            name="topic"
            value={values.topic}
            required
            aria-invalid={errors.topic !== undefined}
            aria-describedby={describedBy}
            onChange={(event) => {
              setContactValue('topic', event.currentTarget.value as ContactTopic | '');
            }}
          >
            <option value="">Choose a topic</option>
            {CONTACT_TOPICS.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.label}
              </option>
            ))}
          </select>
        )}
      </ContactField>

      <ContactField
        id={fieldId('message')}
        label="Message"
        hint={`At least ${String(MIN_CONTACT_MESSAGE_LENGTH)} characters. For a problem with a call, name the endpoint and the status you got.`}
        error={errors.message}
      >
        {(describedBy) => <textarea {...text('message')} rows={6} required aria-describedby={describedBy} />}
      </ContactField>

      <p className="contact-form__hint">
        We use your name and email only to answer you, as the <a href={AUTH_LINKS.privacy}>Privacy Policy</a>{' '}
        describes.
      </p>

      {/* Hidden from people and assistive technology; only bots fill it in. */}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor={fieldId(HONEYPOT)}>Leave this field empty</label>
        <input id={fieldId(HONEYPOT)} name={HONEYPOT} type="text" tabIndex={-1} autoComplete="off" />
      </div>

      <button type="submit" className="btn btn-primary btn-lg" disabled={!hydrated || sending}>
        {sending ? 'Sending…' : 'Send message'}
      </button>
      <p role="status" aria-atomic="true" className="contact-form__message">
        {message}
      </p>
    </form>
  );
}
