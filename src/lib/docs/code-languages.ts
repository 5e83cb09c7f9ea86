/**
 * The languages of the documentation's code samples, in tab order. The reference pages generate a
 * sample in each (src/server/docs/code-samples.ts), the first-paint script shows the reader's chosen
 * one before the first frame, and the tabs script remembers a new choice for every page.
 */
export const CODE_LANGUAGES = [
  { id: 'curl', label: 'curl' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
  { id: 'go', label: 'Go' },
  { id: 'php', label: 'PHP' },
  { id: 'java', label: 'Java' },
  { id: 'csharp', label: 'C#' },
  { id: 'ruby', label: 'Ruby' },
] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number]['id'];

/** Where the reader's chosen language is kept (local storage), for every page and later visits. */
export const CODE_LANGUAGE_STORAGE_KEY = 'codeLanguage';

/** The language shown until the reader picks another. */
export const DEFAULT_CODE_LANGUAGE: CodeLanguage = 'curl';

/** Whether a stored or clicked value names one of the languages. */
export function isCodeLanguage(value: unknown): value is CodeLanguage {
  return CODE_LANGUAGES.some((language) => language.id === value);
}
