import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import {
  COMPANY_SIZES,
  ENQUIRY_FIELDS,
  MIN_MESSAGE_LENGTH,
  type CompanySize,
} from '../lib/enterprise-form.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $enterpriseForm,
  prefillEnquiry,
  preloadEnquiryRules,
  resetEnquiry,
  setEnquiryValue,
  submitEnquiry,
  type TextField,
} from '../lib/stores/enterprise.ts';
import { $user } from '../lib/stores/user.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import { ContactField, HONEYPOT, honeypotOf } from './parts/ContactField.tsx';

/** Reads only the honeypot from the submitted form; every other value lives in the store. */
function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  void submitEnquiry(honeypotOf(event));
}

interface ThankYouProps {
  name: string;
  email: string;
}

/** The sent state: who will hear back, where and when, with the heading focused so it is read out. */
function ThankYou({ name, email }: ThankYouProps): ReactNode {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const baseId = useId();
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return (
    <section className="contact-form contact-form--sent enterprise-form" aria-labelledby={`${baseId}-thanks`}>
      <h2 id={`${baseId}-thanks`} ref={headingRef} tabIndex={-1} className="contact-form__title">
        {firstName === '' ? 'Thank you!' : `Thank you, ${firstName}!`}
      </h2>
      <div role="status" className="contact-form__thanks">
        <p>
          Your enquiry has reached our enterprise team. We&apos;ll reply within one business day at{' '}
          <strong>{email.trim()}</strong>.
        </p>
      </div>
      <p className="contact-form__intro">
        In the meantime, you can explore the <a href="/developer/docs">API documentation</a> or try requests
        in the <a href="/playground">API Viewer</a>.
      </p>
      <button type="button" className="btn btn-secondary" onClick={resetEnquiry}>
        Send another enquiry
      </button>
    </section>
  );
}

/**
 * The enterprise enquiry form: a few facts about the company and the use case, checked with the
 * server's own rules before sending. Errors show next to their fields and focus moves to the first
 * one; nothing typed is lost on any failure. Signed-in visitors find their name and email filled in.
 */
export function EnterpriseForm(): ReactNode {
  const { status, values, errors, message, attempt } = useStore($enterpriseForm);
  const user = useStore($user);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const messageId = `${baseId}-message`;
  const fieldId = (field: string): string => `${baseId}-${field}`;
  const sending = status === 'sending';

  // The store outlives client-side navigations; a later visit starts with a clean form.
  useEffect(() => resetEnquiry, []);

  useEffect(() => {
    prefillEnquiry(user);
  }, [user]);

  // After a refused submission, take the visitor to the first field that needs fixing.
  useEffect(() => {
    if (attempt === 0) return;
    const first = ENQUIRY_FIELDS.find((field) => errors[field] !== undefined);
    if (first !== undefined) document.getElementById(fieldId(first))?.focus();
    // Only a new attempt moves focus (hence the one dependency): fixing a field must not pull the
    // cursor away.
  }, [attempt]);

  if (status === 'sent') return <ThankYou name={values.name} email={values.email} />;

  const text = (field: TextField) => ({
    id: fieldId(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] !== undefined,
    onChange: (event: { currentTarget: { value: string } }) => {
      setEnquiryValue(field, event.currentTarget.value);
    },
  });

  return (
    <form
      className="contact-form enterprise-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={submit}
      onFocus={preloadEnquiryRules}
    >
      <h2 id={titleId} className="contact-form__title">
        Talk to our enterprise team
      </h2>
      <p className="contact-form__intro">
        Tell us what you are building and we will prepare a proposal for your data licence. Fields marked
        optional may be left empty.
      </p>

      <ContactField id={fieldId('name')} label="Full name" error={errors.name}>
        {(describedBy) => (
          <input {...text('name')} type="text" autoComplete="name" required aria-describedby={describedBy} />
        )}
      </ContactField>

      <ContactField id={fieldId('email')} label="Work email" error={errors.email}>
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

      <div className="contact-form__row">
        <ContactField id={fieldId('company')} label="Company" error={errors.company}>
          {(describedBy) => (
            <input
              {...text('company')}
              type="text"
              autoComplete="organization"
              required
              aria-describedby={describedBy}
            />
          )}
        </ContactField>

        <ContactField id={fieldId('jobTitle')} label="Job title (optional)" error={errors.jobTitle}>
          {(describedBy) => (
            <input
              {...text('jobTitle')}
              type="text"
              autoComplete="organization-title"
              aria-describedby={describedBy}
            />
          )}
        </ContactField>
      </div>

      <ContactField id={fieldId('companySize')} label="Company size" error={errors.companySize}>
        {(describedBy) => (
          <select
            id={fieldId('companySize')}
            name="companySize"
            value={values.companySize}
            required
            aria-invalid={errors.companySize !== undefined}
            aria-describedby={describedBy}
            onChange={(event) => {
              setEnquiryValue('companySize', event.currentTarget.value as CompanySize | '');
            }}
          >
            <option value="">Choose a size</option>
            {COMPANY_SIZES.map((size) => (
              <option key={size.value} value={size.value}>
                {size.label}
              </option>
            ))}
          </select>
        )}
      </ContactField>

      <ContactField
        id={fieldId('message')}
        label="Your use case"
        hint={`The data you need, how you will use or display it, and the delivery you prefer (at least ${MIN_MESSAGE_LENGTH} characters).`}
        error={errors.message}
      >
        {(describedBy) => <textarea {...text('message')} rows={6} required aria-describedby={describedBy} />}
      </ContactField>

      <div className="contact-form__consent">
        <input
          id={fieldId('consent')}
          name="consent"
          type="checkbox"
          checked={values.consent}
          required
          aria-invalid={errors.consent !== undefined}
          aria-describedby={errors.consent === undefined ? undefined : `${fieldId('consent')}-error`}
          onChange={(event) => {
            setEnquiryValue('consent', event.currentTarget.checked);
          }}
        />
        <label htmlFor={fieldId('consent')}>
          I agree to be contacted by Tickerlake about this enquiry, as described in the{' '}
          <a href={AUTH_LINKS.privacy}>Privacy Policy</a>.
        </label>
        {errors.consent === undefined ? null : (
          <p id={`${fieldId('consent')}-error`} className="contact-form__error">
            {errors.consent}
          </p>
        )}
      </div>

      {/* Hidden from people and assistive technology; only bots fill it in. */}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor={fieldId(HONEYPOT)}>Leave this field empty</label>
        <input id={fieldId(HONEYPOT)} name={HONEYPOT} type="text" tabIndex={-1} autoComplete="off" />
      </div>

      <button type="submit" className="btn btn-primary btn-lg" disabled={!hydrated || sending}>
        {sending ? 'Sending…' : 'Send enquiry'}
      </button>
      <p id={messageId} role="status" aria-atomic="true" className="contact-form__message">
        {message}
      </p>
    </form>
  );
}
