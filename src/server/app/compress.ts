import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';

/**
 * Compresses what the site answers besides its hashed assets (which are stored compressed): pages,
 * prerendered or rendered on demand, and the accounts API's JSON. A page's HTML shrinks to about a
 * sixth, which on a mobile network is most of the time before its first paint. Brotli at quality 5
 * costs about a millisecond for a symbol page; gzip for clients without brotli; nothing under 1 KB.
 */
const middleware = compression({
  threshold: 1024,
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
});

/** Runs `next` with the answer compressed when the client accepts it and the type is text-like. */
export function compressAnswer(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  // The library is written against Express's request and response, which extend Node's own.
  (middleware as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void)(
    req,
    res,
    next,
  );
}
