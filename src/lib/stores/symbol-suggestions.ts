import { atom } from 'nanostores';
import { api } from '../http.ts';

/*
 * Ticker suggestions under a symbol field (the API viewer's and the spreadsheet explorer's forms).
 * They come from the symbol directory that `search-symbol` reads, through the site
 * (GET /api/playground/symbols), so suggestions spend none of the reader's API calls.
 */

/** A symbol the symbol fields suggest. */
export interface SymbolSuggestion {
  symbol: string;
  name: string;
  exchange: string;
  assetType: string;
}

/** The suggestions for what was typed in a symbol field (one field asks at a time). */
export const $suggestions = atom<{ param: string; text: string; items: SymbolSuggestion[] }>({
  param: '',
  text: '',
  items: [],
});

/** How long typing pauses before the site is asked. */
const SUGGEST_PAUSE_MS = 150;

let suggestTimer: ReturnType<typeof setTimeout> | undefined;
/** The field and text asked about last: an answer for anything older is dropped. */
let asked = { param: '', text: '' };

/** Asks for symbols matching the last ticker typed in a field, once typing pauses. */
export function suggestSymbols(param: string, text: string): void {
  clearTimeout(suggestTimer);
  asked = { param, text };
  const query = text.split(',').at(-1)?.trim() ?? '';
  if (query === '') {
    $suggestions.set({ param, text, items: [] });
    return;
  }
  suggestTimer = setTimeout(() => {
    api<{ symbols: SymbolSuggestion[] }>('/api/playground/symbols', { query: { query } })
      .then((answer) => {
        if (asked.param === param && asked.text === text)
          $suggestions.set({ param, text, items: answer.symbols });
      })
      .catch(() => {
        // Suggestions are a convenience: without them the field still takes any ticker typed.
        if (asked.param === param && asked.text === text) $suggestions.set({ param, text, items: [] });
      });
  }, SUGGEST_PAUSE_MS);
}

/** Closes the suggestions. */
export function clearSuggestions(): void {
  clearTimeout(suggestTimer);
  asked = { param: '', text: '' };
  $suggestions.set({ param: '', text: '', items: [] });
}
