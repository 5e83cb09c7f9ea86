/**
 * The errors a spreadsheet function can answer with, independent of Excel: the Excel entry turns each
 * into a `CustomFunctions.Error` of the same code, tests read the code and message directly. Only the
 * two codes a reader can act on are used: a bad argument is theirs to fix (#VALUE!), anything the data
 * cannot give (unknown symbol, plan, limit, no connection) is "not available" (#N/A) with the reason.
 */

/** Excel's error values, by the names of `CustomFunctions.ErrorCode`. */
export type SpreadsheetErrorCode = 'invalidValue' | 'notAvailable';

/** What each code shows in a cell. */
export const ERROR_CELL_TEXT: Readonly<Record<SpreadsheetErrorCode, string>> = {
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
};

/** A function's refusal: the cell shows the code, and the message in its error tooltip. */
export class SpreadsheetError extends Error {
  readonly code: SpreadsheetErrorCode;
  constructor(code: SpreadsheetErrorCode, message: string) {
    super(message);
    this.name = 'SpreadsheetError';
    this.code = code;
  }
}

/** A #VALUE! for an argument the reader has to correct. */
export function badArgument(message: string): SpreadsheetError {
  return new SpreadsheetError('invalidValue', message);
}

/** A #N/A for data that cannot be given, with the reason. */
export function notAvailable(message: string): SpreadsheetError {
  return new SpreadsheetError('notAvailable', message);
}
