/*
 * The few Office globals the add-in uses, declared here instead of pulling in Office's full type
 * packages: office.js (loaded from Microsoft's CDN by the add-in's pages) defines them inside Excel;
 * everywhere else they are undefined, which the code checks before use.
 */

declare namespace CustomFunctions {
  /** Excel's error values a function may answer with. */
  type ErrorCode = 'invalidValue' | 'notAvailable' | 'divisionByZero' | 'invalidNumber' | 'nullReference';

  /** Shown in the cell as its error value, with the message in the error's tooltip. */
  class Error {
    constructor(code: ErrorCode, message?: string);
    code: ErrorCode;
    message?: string;
  }

  /** Ties a function id of functions.json to its implementation. */
  function associate(id: string, fn: (...args: never[]) => unknown): void;
}

declare namespace Office {
  /** Resolves once office.js has started, with the host it runs in (null outside Office). */
  function onReady(): Promise<{ host: string | null; platform: string | null }>;
}
