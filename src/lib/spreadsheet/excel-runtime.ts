import { createDataClient, type DataClient } from './data-client.ts';
import { SpreadsheetError } from './errors.ts';
import { SPREADSHEET_FUNCTIONS, type Argument, type CellValue } from './functions.ts';
import { hostKeyStore, type KeyStore } from './key-store.ts';

/**
 * The Excel entry: registers every function of {@link SPREADSHEET_FUNCTIONS} with Excel
 * (`CustomFunctions.associate`, under the id functions.json gives it) and turns their refusals into
 * Excel errors. The task pane page and functions.js both run it; outside Excel it does nothing.
 */

/** Excel shows at most this much of an error's message. */
const MAX_ERROR_MESSAGE = 255;

/** An error as Excel shows it: a SpreadsheetError keeps its code and message, anything else is #N/A. */
export function toExcelError(error: unknown): CustomFunctions.Error {
  const code = error instanceof SpreadsheetError ? error.code : 'notAvailable';
  const message = error instanceof Error ? error.message : String(error);
  return new CustomFunctions.Error(code, message.slice(0, MAX_ERROR_MESSAGE));
}

export interface ExcelRuntimeOptions {
  /** The data API's base URL. */
  baseUrl: string;
  keys?: KeyStore;
  fetch?: typeof fetch;
}

/** Registers the functions when Excel's custom-functions runtime is there; answers whether it was. */
export function registerExcelFunctions(options: ExcelRuntimeOptions): boolean {
  if (typeof CustomFunctions === 'undefined') return false;
  const client: DataClient = createDataClient({
    baseUrl: options.baseUrl,
    keys: options.keys ?? hostKeyStore(),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  for (const fn of SPREADSHEET_FUNCTIONS) {
    CustomFunctions.associate(fn.name, async (...args: Argument[]): Promise<CellValue | CellValue[][]> => {
      try {
        // Excel passes exactly the declared parameters; anything more is not an argument.
        return await fn.run(client, args.slice(0, fn.parameters.length));
      } catch (error) {
        // Excel shows what the function rejects with; only its own error type becomes an error value.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw toExcelError(error);
      }
    });
  }
  return true;
}
