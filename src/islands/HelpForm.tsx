import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import { HELP_FIELDS, MIN_HELP_MESSAGE_LENGTH } from '../lib/help-form.ts';
import { HELP_TOPICS, type HelpTopic } from '../lib/help-topics.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $helpForm,
  prefillHelp,
  preloadHelpRules,
  resetHelp,
  setHelpValue,
  submitHelp,
  type HelpFormValues,
} from '../lib/stores/help-form.ts';
import { $user } from '../lib/stores/user.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import { ContactField, HONEYPOT, honeypotOf } from './parts/ContactField.tsx';

/** Reads only the honeypot from the submitted form; every other value lives in the store. */
function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  void submitHelp(honeypotOf(event));
}

interface SentProps {
  name: string;
  email: string;
  reference: string;
}

/** The sent state: the reference, where the confirmation went, with the heading focused so it is read out. */
function Sent({ name, email, reference }: SentProps): ReactNode {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const baseId = useId();
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return (
    <section className="contact-form contact-form--sent help-form" aria-labelledby={`${baseId}-thanks`}>
      <h2 id={`${baseId}-thanks`} ref={headingRef} tabIndex={-1} className="contact-form__title">
        {firstName === '' ? 'Thank you!' : `Thank you, ${firstName}!`}
      </h2>
      <div role="status" className="contact-form__thanks">
        <p>
          We received your question. Your reference is{' '}
          <strong className="contact-form__reference">{reference}</strong>; we sent a confirmation to{' '}
          <strong>{email.trim()}</strong> and will answer there.
        </p>
      </div>
      <p className="contact-form__intro">
        Quote the reference if you write to us again about the same question.
      </p>
      <button type="button" className="btn btn-secondary" onClick={resetHelp}>
        Ask another question
      </button>
    </section>
  );
}

/**
 * The help center's contact form: name, email, topic and question, checked with the server's own
 * rules before sending. Errors show next to their fields and focus moves to the first one; nothing
 * typed is lost on any failure. Signed-in visitors find their name and email filled in.
 */
export function HelpForm(): ReactNode {
  const { status, values, errors, message, attempt, reference } = useStore($helpForm);
  const user = useStore($user);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const fieldId = (field: string): string => `${baseId}-${field}`;
  const sending = status === 'sending';

  // The store outlives client-side navigations; a later visit starts with a clean form.
  useEffect(() => resetHelp, []);

  useEffect(() => {
    prefillHelp(user);
  }, [user]);

  // After a refused submission, take the visitor to the first field that needs fixing.
  useEffect(() => {
    if (attempt === 0) return;
    const first = HELP_FIELDS.find((field) => errors[field] !== undefined);
    if (first !== undefined) document.getElementById(fieldId(first))?.focus();
    // Only a new attempt moves focus (hence the one dependency): fixing a field must not pull the
    // cursor away.
  }, [attempt]);

  if (status === 'sent') return <Sent name={values.name} email={values.email} reference={reference} />;

  const text = (field: Exclude<keyof HelpFormValues, 'topic'>) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] !== undefined,
    onChange: (event: { currentTarget: { value: string } }) => {
      setHelpValue(field, event.currentTarget.value);
    },
  });

  return (
    <form
      className="contact-form help-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={submit}
      onFocus={preloadHelpRules}
    >
      <h2 id={titleId} className="contact-form__title">
        Ask us a question
      </h2>
      <p className="contact-form__intro">
        Did not find your answer? Write to us and we will reply by email. Never send your API key or your
        password; we do not need them to help you.
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
              setHelpValue('topic', event.currentTarget.value as HelpTopic | '');
            }}
          >
            <option value="">Choose a topic</option>
            {HELP_TOPICS.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.label}
              </option>
            ))}
          </select>
        )}
      </ContactField>

      <ContactField
        id={fieldId('message')}
        label="Your question"
        hint={`What you tried and what happened, with the endpoint and the status you got if it is about a call (at least ${MIN_HELP_MESSAGE_LENGTH} characters).`}
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
        {sending ? 'Sending…' : 'Send question'}
      </button>
      <p role="status" aria-atomic="true" className="contact-form__message">
        {message}
      </p>
    </form>
  );
}
