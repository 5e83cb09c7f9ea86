import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from 'react';
import { AUTH_LINKS } from '../../lib/routes.ts';
import {
  $canSubmitQuestionnaire,
  $questionnaire,
  chooseAnswer,
  goToStep,
  QUESTIONNAIRE_STEPS,
  QUESTIONNAIRE_SUBHEADING,
  QUESTIONNAIRE_TITLE,
  questionAt,
} from '../../lib/stores/questionnaire.ts';
import {
  $signUp,
  KEY_GENERATED_MESSAGE,
  PREPARING_KEY_MESSAGE,
  resetSignUp,
  submitQuestionnaire,
  switchToSignIn,
  type SignUpVariant,
} from '../../lib/stores/sign-up.ts';
import './Questionnaire.css';

export interface QuestionnaireProps {
  /** `page`: /register, where the title is the page's heading; `popup`: inside the auth dialog. */
  variant: SignUpVariant;
}

/** The accessible name of a step dot, e.g. "Step 2 of 5". */
export function stepLabel(step: number): string {
  return `Step ${String(step + 1)} of ${String(QUESTIONNAIRE_STEPS)}`;
}

/** On the page the title is the page's heading; the dialog already has one above it. */
function Title({ variant, id, children }: { variant: SignUpVariant; id: string; children: ReactNode }) {
  return variant === 'page' ? (
    <h1 id={id} className="questionnaire__title">
      {children}
    </h1>
  ) : (
    <h3 id={id} className="questionnaire__title">
      {children}
    </h3>
  );
}

/**
 * The questionnaire after sign-up (SPEC §2): five questions one at a time, options as buttons,
 * step dots back to steps already reached, Submit on the last step once it is answered; then the
 * 'preparing' and 'key generated' views of the registration that follows.
 */
export function Questionnaire({ variant }: QuestionnaireProps): ReactNode {
  const { phase, email } = useStore($signUp);
  const { step, furthest, answers } = useStore($questionnaire);
  const canSubmit = useStore($canSubmitQuestionnaire);
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const focusTarget = useRef<HTMLElement>(null);
  const current = questionAt(step);

  // Each new step (and each new view) takes focus, so keyboard and screen-reader users hear it.
  useEffect(() => {
    focusTarget.current?.focus();
  }, [phase, step]);

  if (phase === 'preparing') {
    return (
      <section
        className={`questionnaire questionnaire--${variant} questionnaire--status`}
        aria-labelledby={titleId}
        aria-busy="true"
      >
        <Title variant={variant} id={titleId}>
          {QUESTIONNAIRE_TITLE}
        </Title>
        <span className="questionnaire__spinner" aria-hidden="true" />
        <p
          ref={(element) => {
            focusTarget.current = element;
          }}
          tabIndex={-1}
          role="status"
          className="questionnaire__status"
        >
          {PREPARING_KEY_MESSAGE}
        </p>
      </section>
    );
  }

  if (phase === 'done') {
    const logIn = (event: MouseEvent<HTMLAnchorElement>): void => {
      if (variant !== 'popup') return;
      event.preventDefault();
      switchToSignIn(email);
      resetSignUp('popup');
    };
    return (
      <section
        className={`questionnaire questionnaire--${variant} questionnaire--status`}
        aria-labelledby={titleId}
      >
        <Title variant={variant} id={titleId}>
          {QUESTIONNAIRE_TITLE}
        </Title>
        <p
          ref={(element) => {
            focusTarget.current = element;
          }}
          tabIndex={-1}
          role="status"
          className="questionnaire__status"
        >
          {KEY_GENERATED_MESSAGE}
        </p>
        <a href={AUTH_LINKS.signIn} className="btn btn-primary questionnaire__login" onClick={logIn}>
          Log In
        </a>
      </section>
    );
  }

  if (!current) return null;
  const chosen = answers[current.question];

  return (
    <section className={`questionnaire questionnaire--${variant}`} aria-labelledby={titleId}>
      <div className="questionnaire__header">
        <Title variant={variant} id={titleId}>
          {QUESTIONNAIRE_TITLE}
        </Title>
        <p className="questionnaire__subheading">{QUESTIONNAIRE_SUBHEADING}</p>
      </div>
      <nav aria-label="Questionnaire steps">
        <ol className="questionnaire__dots">
          {Array.from({ length: QUESTIONNAIRE_STEPS }, (_, index) => (
            <li key={index}>
              <button
                type="button"
                className="questionnaire__dot"
                aria-label={stepLabel(index)}
                aria-current={index === step ? 'step' : undefined}
                data-answered={answers[questionAt(index)?.question ?? ''] !== undefined || undefined}
                disabled={index > furthest}
                onClick={() => {
                  goToStep(index);
                }}
              />
            </li>
          ))}
        </ol>
      </nav>
      <fieldset className="questionnaire__question">
        <legend className="questionnaire__legend">
          <span className="questionnaire__count">
            Question {step + 1} of {QUESTIONNAIRE_STEPS}
          </span>
          <span
            ref={(element) => {
              focusTarget.current = element;
            }}
            tabIndex={-1}
            className="questionnaire__text"
          >
            {current.question}
          </span>
        </legend>
        <div className="questionnaire__options">
          {current.options.map((option) => (
            <button
              key={option}
              type="button"
              className="questionnaire__option"
              aria-pressed={chosen === option}
              onClick={() => {
                chooseAnswer(option);
              }}
            >
              {option}
            </button>
          ))}
        </div>
      </fieldset>
      {canSubmit ? (
        <button
          type="button"
          className="btn btn-primary questionnaire__submit"
          onClick={() => {
            void submitQuestionnaire();
          }}
        >
          Submit
        </button>
      ) : null}
    </section>
  );
}
