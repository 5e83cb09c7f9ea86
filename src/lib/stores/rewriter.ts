import { map } from 'nanostores';

/** Shown when a rewrite fails without a message of its own, so the panel never shows a blank error. */
export const REWRITER_FAILED_MESSAGE = 'Rewriting failed. Please try again later.';

/** SPEC §3, rewriter state (the content-rewriting tool). */
export interface RewriterState {
  /** Tokens used so far against the quota, as the rewriter last reported them. */
  usedTokens: number;
  /** The quota; 0 means the rewriter has not reported one yet. */
  maxTokens: number;
  /** What this session's rewrites have cost in total, until the rewriter is cleared. */
  totalCost: number;
  rewriterOpen: boolean;
  /**
   * Values the rewriter fills into a form on its own, keyed by field name, so a field can look up
   * its suggestion directly instead of searching a list.
   */
  autoDDFields: Record<string, string>;
  /** The rewritten passages, one per grid cell. */
  contentGrid: string[];
  useContentGrid: boolean;
  contentLoading: boolean;
  errorObj: Error | null;
  errorMessage: string;
}

function initialRewriter(): RewriterState {
  return {
    usedTokens: 0,
    maxTokens: 0,
    totalCost: 0,
    rewriterOpen: false,
    autoDDFields: {},
    contentGrid: [],
    useContentGrid: false,
    contentLoading: false,
    errorObj: null,
    errorMessage: '',
  };
}

export const $rewriter = map<RewriterState>(initialRewriter());

/** SPEC §4: a rewrite starting opens the tool; an earlier failure no longer applies, so it is hidden. */
export function rewriterLoading(): void {
  $rewriter.set({
    ...$rewriter.get(),
    rewriterOpen: true,
    contentLoading: true,
    errorObj: null,
    errorMessage: '',
  });
}

export interface RewriterResult {
  content: readonly string[];
  /** The cost of this rewrite alone. */
  cost: number;
  usedTokens: number;
  /** Left out when the quota did not change, so the last known one stays. */
  maxTokens?: number;
}

/**
 * SPEC §4: stores the content and the cost. Each answer prices only its own rewrite, so the cost
 * is added to the running total; token counts are the quota as it stands, so they replace the old.
 */
export function rewriterSucceeded(result: RewriterResult): void {
  const current = $rewriter.get();
  $rewriter.set({
    ...current,
    contentGrid: [...result.content],
    totalCost: current.totalCost + result.cost,
    usedTokens: result.usedTokens,
    maxTokens: result.maxTokens ?? current.maxTokens,
    contentLoading: false,
  });
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error.trim();
  if (error instanceof Error) return error.message.trim();
  if (typeof error === 'object' && error !== null) {
    for (const key of ['error', 'message'] as const) {
      const value: unknown = (error as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  return '';
}

/**
 * SPEC §4: a failure closes the tool and keeps the message for the page to show. Anything thrown
 * is accepted (an Error, a server's `{error}` body, plain text) and kept as an Error so callers
 * can rely on one shape.
 */
export function rewriterFailed(error: unknown): void {
  const message = messageOf(error);
  const errorMessage = message === '' ? REWRITER_FAILED_MESSAGE : message;
  $rewriter.set({
    ...$rewriter.get(),
    rewriterOpen: false,
    contentLoading: false,
    errorObj: error instanceof Error ? error : new Error(errorMessage, { cause: error }),
    errorMessage,
  });
}

/** SPEC §4: everything back to its default, including the running cost. */
export function clearRewriter(): void {
  $rewriter.set(initialRewriter());
}
