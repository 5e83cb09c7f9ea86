import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNUP_QUESTIONS } from '../../src/lib/signup-questions.ts';
import {
  $canSubmitQuestionnaire,
  $questionnaire,
  canGoToStep,
  chooseAnswer,
  goToStep,
  isComplete,
  isProtectingLeave,
  LEAVE_PAGE_MESSAGE,
  protectLeaving,
  QUESTIONNAIRE_STEPS,
  QUESTIONNAIRE_SUBHEADING,
  QUESTIONNAIRE_TITLE,
  resetQuestionnaire,
} from '../../src/lib/stores/questionnaire.ts';

/** The first option of a step's question. */
function firstOption(step: number): string {
  const question = SIGNUP_QUESTIONS[step];
  if (!question) throw new Error(`no question at step ${String(step)}`);
  return question.options[0];
}

/** Answers every step from the current one on with its first option. */
function answerAll(): void {
  for (let step = 0; step < QUESTIONNAIRE_STEPS; step += 1) chooseAnswer(firstOption(step));
}

beforeEach(() => {
  resetQuestionnaire();
});

describe('the questionnaire', () => {
  it('has the five questions of the spec and its title and sub-heading word for word', () => {
    expect(QUESTIONNAIRE_STEPS).toBe(5);
    expect(SIGNUP_QUESTIONS.map(({ question }) => question)).toEqual([
      'Primary purpose for using the API',
      'Dataset most interested in',
      'Most important aspect in a provider',
      'Role in organization',
      'How did you hear about us',
    ]);
    expect(QUESTIONNAIRE_TITLE).toBe('Get Your Free API Key');
    expect(QUESTIONNAIRE_SUBHEADING).toBe(
      'Finish your account registration by identifying how you plan to use your powerful API key!',
    );
  });

  it('starts on the first step with nothing answered and nothing to submit', () => {
    expect($questionnaire.get()).toEqual({ step: 0, furthest: 0, answers: {} });
    expect($canSubmitQuestionnaire.get()).toBe(false);
  });

  it('stores a chosen option under the question text and moves on to the next step', () => {
    chooseAnswer('Market Research');
    expect($questionnaire.get()).toEqual({
      step: 1,
      furthest: 1,
      answers: { 'Primary purpose for using the API': 'Market Research' },
    });
  });

  it('ignores an option that does not belong to the question on screen', () => {
    chooseAnswer('Affordability');
    expect($questionnaire.get()).toEqual({ step: 0, furthest: 0, answers: {} });
  });

  it('stays on the last step when its answer is chosen, and only then offers Submit', () => {
    for (let step = 0; step < QUESTIONNAIRE_STEPS - 1; step += 1) {
      chooseAnswer(firstOption(step));
      expect($canSubmitQuestionnaire.get()).toBe(false);
    }
    expect($questionnaire.get().step).toBe(4);
    expect($canSubmitQuestionnaire.get()).toBe(false);
    chooseAnswer('Referral');
    expect($questionnaire.get().step).toBe(4);
    expect($questionnaire.get().answers['How did you hear about us']).toBe('Referral');
    expect($canSubmitQuestionnaire.get()).toBe(true);
  });

  it('lets the last answer be changed without leaving the last step', () => {
    answerAll();
    chooseAnswer('Conference');
    expect($questionnaire.get().step).toBe(4);
    expect($questionnaire.get().answers['How did you hear about us']).toBe('Conference');
  });

  it('step dots go back to steps already reached', () => {
    chooseAnswer(firstOption(0));
    chooseAnswer(firstOption(1));
    goToStep(0);
    expect($questionnaire.get().step).toBe(0);
    expect($questionnaire.get().furthest).toBe(2);
  });

  it('step dots go forward again only as far as the furthest step reached', () => {
    chooseAnswer(firstOption(0));
    chooseAnswer(firstOption(1));
    goToStep(0);
    goToStep(2);
    expect($questionnaire.get().step).toBe(2);
    goToStep(3);
    expect($questionnaire.get().step).toBe(2);
    expect(canGoToStep(3)).toBe(false);
  });

  it('step dots ignore steps that do not exist', () => {
    goToStep(-1);
    goToStep(0.5);
    goToStep(Number.NaN);
    expect($questionnaire.get().step).toBe(0);
  });

  it('answering an earlier step again moves to the step after it and keeps the progress', () => {
    answerAll();
    goToStep(1);
    chooseAnswer('SEC Filings');
    expect($questionnaire.get().step).toBe(2);
    expect($questionnaire.get().furthest).toBe(4);
    expect($questionnaire.get().answers['Dataset most interested in']).toBe('SEC Filings');
  });

  it('hides Submit while the visitor is back on an earlier step, and shows it again on the last', () => {
    answerAll();
    goToStep(2);
    expect($canSubmitQuestionnaire.get()).toBe(false);
    goToStep(4);
    expect($canSubmitQuestionnaire.get()).toBe(true);
  });

  it('counts answers complete only when every question has one of its own options', () => {
    const answers = Object.fromEntries(
      SIGNUP_QUESTIONS.map(({ question, options }) => [question, options[0]]),
    );
    expect(isComplete(answers)).toBe(true);
    expect(isComplete({ ...answers, 'Role in organization': 'Astronaut' })).toBe(false);
    const partial: Record<string, string> = { ...answers };
    delete partial['Role in organization'];
    expect(isComplete(partial)).toBe(false);
  });

  it('starts over when reset', () => {
    answerAll();
    resetQuestionnaire();
    expect($questionnaire.get()).toEqual({ step: 0, furthest: 0, answers: {} });
  });
});

describe('leaving an unfinished questionnaire', () => {
  let confirm: ReturnType<typeof vi.fn<(message: string) => boolean>>;

  beforeEach(() => {
    confirm = vi.fn<(message: string) => boolean>(() => false);
    vi.stubGlobal('window', Object.assign(new EventTarget(), { confirm }));
    vi.stubGlobal('document', new EventTarget());
  });

  afterEach(() => {
    protectLeaving(false);
    vi.unstubAllGlobals();
  });

  function unload(): Event {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event;
  }

  function routerNavigation(): Event {
    const event = new Event('astro:before-preparation', { cancelable: true });
    document.dispatchEvent(event);
    return event;
  }

  it('asks the browser to confirm unloading the page while protected, and not after', () => {
    protectLeaving(true);
    expect(isProtectingLeave()).toBe(true);
    expect(unload().defaultPrevented).toBe(true);
    protectLeaving(false);
    expect(isProtectingLeave()).toBe(false);
    expect(unload().defaultPrevented).toBe(false);
  });

  it('asks in the spec words before an in-site navigation and stays when the visitor declines', () => {
    protectLeaving(true);
    expect(routerNavigation().defaultPrevented).toBe(true);
    expect(confirm).toHaveBeenCalledWith('You have attempted to leave this page. Are you sure?');
    expect(LEAVE_PAGE_MESSAGE).toBe('You have attempted to leave this page. Are you sure?');
    expect(isProtectingLeave()).toBe(true);
  });

  it('lets the navigation go ahead, and stops asking, when the visitor confirms', () => {
    confirm.mockReturnValue(true);
    protectLeaving(true);
    expect(routerNavigation().defaultPrevented).toBe(false);
    expect(isProtectingLeave()).toBe(false);
    expect(unload().defaultPrevented).toBe(false);
  });

  it('installs its listeners once however often it is turned on', () => {
    protectLeaving(true);
    protectLeaving(true);
    routerNavigation();
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
