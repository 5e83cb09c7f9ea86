import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { surveys, type SurveyType } from '../db/schema.ts';
import { SIGNUP_QUESTIONS, type SignupAnswers } from '../../lib/signup-questions.ts';

export { SIGNUP_QUESTIONS, type SignupAnswers };

/** Exactly the five questions, each with one of its listed options; shared with the HTTP route. */
export const signupAnswersSchema = z.strictObject(
  Object.fromEntries(SIGNUP_QUESTIONS.map(({ question, options }) => [question, z.enum(options)])),
);

export interface SurveyRecord {
  id: string;
  email: string;
  type: SurveyType;
  answers: SignupAnswers;
  createdAt: Date;
}

export interface SubmitSurveyInput {
  email: string;
  type: SurveyType;
  answers: unknown;
}

export interface SubmitSurveyResult {
  created: boolean;
  survey: SurveyRecord;
}

/** Thrown for answers that do not fit the questionnaire, with one line per problem for the caller to show. */
export class InvalidSurveyError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid survey: ${problems.join('; ')}`);
    this.name = 'InvalidSurveyError';
    this.problems = problems;
  }
}

/** Problems with a set of answers (empty when valid), worded with the question texts. */
export function validateSignupAnswers(answers: unknown): string[] {
  const parsed = signupAnswersSchema.safeParse(answers);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    if (issue.code === 'unrecognized_keys') return `Unknown question: ${issue.keys.join(', ')}`;
    if (typeof key !== 'string') return 'Answers must be an object keyed by question text';
    if (!Object.hasOwn(answers as object, key)) return `Missing answer: ${key}`;
    return `Not an option for "${key}"`;
  });
}

function normaliseEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed === '' || !trimmed.includes('@')) throw new InvalidSurveyError(['A valid email is required']);
  return trimmed;
}

async function findSurvey(db: Db, email: string, type: SurveyType): Promise<SurveyRecord | null> {
  const [row] = await db
    .select()
    .from(surveys)
    .where(and(sql`lower(${surveys.email}) = lower(${email})`, eq(surveys.type, type)))
    .limit(1);
  return row ?? null;
}

/**
 * Stores a questionnaire once per address and kind, ignoring letter case. A repeat (a second tab, a retry)
 * keeps the first answers rather than failing, so the client never has to care.
 */
export async function submitSurvey(db: Db, input: SubmitSurveyInput): Promise<SubmitSurveyResult> {
  const email = normaliseEmail(input.email);
  const problems = validateSignupAnswers(input.answers);
  if (problems.length > 0) throw new InvalidSurveyError(problems);
  const answers = signupAnswersSchema.parse(input.answers);
  const [inserted] = await db
    .insert(surveys)
    .values({ email, type: input.type, answers })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { created: true, survey: inserted };
  const existing = await findSurvey(db, email, input.type);
  if (!existing) throw new Error('Survey was neither inserted nor found');
  return { created: false, survey: existing };
}

/** SPEC §7: the client only checks for an email field, so a missing survey is null rather than an error. */
export function getSurvey(db: Db, email: string, type: SurveyType): Promise<SurveyRecord | null> {
  const trimmed = email.trim();
  if (trimmed === '') return Promise.resolve(null);
  return findSurvey(db, trimmed, type);
}
