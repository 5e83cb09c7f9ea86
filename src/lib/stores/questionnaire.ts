import { computed, map } from 'nanostores';
import { SIGNUP_QUESTIONS, type SignupAnswers, type SignupQuestion } from '../signup-questions.ts';

/** SPEC §2, questionnaire: the words the visitor reads, word for word. */
export const QUESTIONNAIRE_TITLE = 'Get Your Free API Key';
export const QUESTIONNAIRE_SUBHEADING =
  'Finish your account registration by identifying how you plan to use your powerful API key!';
export const LEAVE_PAGE_MESSAGE = 'You have attempted to leave this page. Are you sure?';

/** SPEC §9: one step per question. */
export const QUESTIONNAIRE_STEPS = SIGNUP_QUESTIONS.length;
const LAST_STEP = QUESTIONNAIRE_STEPS - 1;

/**
 * Where the visitor is in the questionnaire: the step on screen (0-based), the furthest step
 * reached so far (the step dots may go back to any step up to it, never beyond), and the answers
 * keyed by question text.
 */
export interface QuestionnaireState {
  step: number;
  furthest: number;
  answers: SignupAnswers;
}

export const $questionnaire = map<QuestionnaireState>({ step: 0, furthest: 0, answers: {} });

/** The question of a step, or undefined outside the questionnaire. */
export function questionAt(step: number): SignupQuestion | undefined {
  return SIGNUP_QUESTIONS[step];
}

/** Whether every question has one of its own options as its answer. */
export function isComplete(answers: SignupAnswers): boolean {
  return SIGNUP_QUESTIONS.every(({ question, options }) =>
    (options as readonly string[]).includes(answers[question] ?? ''),
  );
}

/** SPEC §5: Submit appears only on the last step, once an answer is chosen there. */
export const $canSubmitQuestionnaire = computed(
  $questionnaire,
  ({ step, answers }) => step === LAST_STEP && isComplete(answers),
);

/**
 * Stores the answer to the question on screen and moves on to the next step, except on the last
 * step, where the visitor submits instead (SPEC §4). An option that does not belong to the
 * question is ignored.
 */
export function chooseAnswer(option: string): void {
  const { step, furthest, answers } = $questionnaire.get();
  const current = questionAt(step);
  if (!current || !(current.options as readonly string[]).includes(option)) return;
  const next = step < LAST_STEP ? step + 1 : step;
  $questionnaire.set({
    step: next,
    furthest: Math.max(furthest, next),
    answers: { ...answers, [current.question]: option },
  });
}

/** Whether a step dot leads somewhere: only to steps already reached. */
export function canGoToStep(step: number): boolean {
  return Number.isInteger(step) && step >= 0 && step <= $questionnaire.get().furthest;
}

/** The step dots: back to any step already reached (and forward again up to the furthest). */
export function goToStep(step: number): void {
  if (canGoToStep(step)) $questionnaire.setKey('step', step);
}

/** A fresh questionnaire, for the next sign-up. */
export function resetQuestionnaire(): void {
  $questionnaire.set({ step: 0, furthest: 0, answers: {} });
}

/** Browsers show their own words for beforeunload; asking is all a page may do. */
function onBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
}

/** An in-site link Astro's router would follow without reloading, which beforeunload never sees. */
function routedLink(event: MouseEvent): HTMLAnchorElement | undefined {
  if (event.defaultPrevented || event.button !== 0) return undefined;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(target instanceof HTMLAnchorElement)) return undefined;
  if (target.target !== '' && target.target !== '_self') return undefined;
  if (target.hasAttribute('download') || target.origin !== location.origin) return undefined;
  const to = new URL(target.href);
  if (to.pathname === location.pathname && to.search === location.search && to.hash !== '') return undefined;
  return target;
}

/**
 * A link click, caught before the router acts on it. Declining cancels the click outright, where
 * cancelling the router's preparation event instead would make it fall back to a full page load.
 */
function onLinkClick(event: MouseEvent): void {
  if (!routedLink(event)) return;
  if (window.confirm(LEAVE_PAGE_MESSAGE)) protectLeaving(false);
  else event.preventDefault();
}

/** Any other in-site navigation (history, script): the last chance to stay. */
function onBeforePreparation(event: Event): void {
  if (window.confirm(LEAVE_PAGE_MESSAGE)) protectLeaving(false);
  else event.preventDefault();
}

let protecting = false;

/**
 * Turns the leave-page protection of an unfinished questionnaire on or off (SPEC §4): the
 * browser's own prompt when the page unloads, and our confirmation for navigations inside the
 * site, which under Astro's client router never unload the page. Idempotent.
 */
export function protectLeaving(active: boolean): void {
  if (typeof window === 'undefined' || active === protecting) return;
  protecting = active;
  if (active) {
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onLinkClick, true);
    document.addEventListener('astro:before-preparation', onBeforePreparation);
  } else {
    window.removeEventListener('beforeunload', onBeforeUnload);
    document.removeEventListener('click', onLinkClick, true);
    document.removeEventListener('astro:before-preparation', onBeforePreparation);
  }
}

/** Whether leaving the page would currently ask first. */
export function isProtectingLeave(): boolean {
  return protecting;
}
