import type { Context, MiddlewareHandler } from 'hono';
import { apiError } from '../app/errors.ts';

export const NOT_JSON_MESSAGE = 'Content-Type must be application/json.';
export const MALFORMED_JSON_MESSAGE = 'Request body is not valid JSON.';

/** Methods whose body carries the request's data; other methods' bodies are not inspected. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The 413 message, naming the limit so a client developer knows what to trim. */
export function bodyTooLargeMessage(maxBytes: number): string {
  return `Request body too large (limit ${maxBytes} bytes).`;
}

function declaredLength(c: Context): number | undefined {
  const header = c.req.header('content-length');
  return header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
}

/**
 * Astro records what it knows of a request (the client's address, its render options) on the
 * Request object itself; a copy made to replace the body must carry them, or every request with a
 * body would seem to come from nowhere (one shared budget for per-address limits, no address in
 * the sessions list, no loopback check).
 */
function keepAstroRecords(original: Request, copy: Request): Request {
  for (const key of Object.getOwnPropertySymbols(original)) {
    if (key.description?.startsWith('astro.') === true) Reflect.set(copy, key, Reflect.get(original, key));
  }
  return copy;
}

/**
 * Refuses bodies over `maxBytes` with 413. A declared Content-Length over the limit is refused
 * without reading; otherwise the bytes are counted as they stream in, because chunked uploads
 * declare no length and a declared length proves nothing before the bytes arrive. The accepted body
 * is buffered (at most `maxBytes`) so later middleware reads it as usual.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new Error(`bodyLimit needs a whole number of bytes, got ${maxBytes}`);
  }
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null) return next();
    const declared = declaredLength(c);
    if (declared !== undefined && declared > maxBytes) {
      await raw.body.cancel().catch(() => undefined);
      return apiError(c, 413, bodyTooLargeMessage(maxBytes));
    }
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return apiError(c, 413, bodyTooLargeMessage(maxBytes));
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = keepAstroRecords(raw, new Request(raw, { body }));
    await next();
  };
}

/** Whether a request carries a body worth checking; an empty POST (Content-Length: 0) does not. */
export function hasRequestBody(c: Context): boolean {
  if (!BODY_METHODS.has(c.req.method)) return false;
  const declared = declaredLength(c);
  if (declared !== undefined) return declared > 0;
  return c.req.raw.body !== null;
}

/** application/json with any parameters, but only in UTF-8, the one encoding JSON allows (RFC 8259). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    return name !== 'charset' || value.replace(/^"|"$/g, '') === 'utf-8';
  });
}

/** The outcome of reading a JSON body: the value, or the refusal to send. */
export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/**
 * Reads a JSON body, answering 415 for another content type and 400 for malformed JSON. The parsed
 * value is cached by Hono, so later `c.req.json()` calls cost nothing.
 */
export async function readJsonBody(c: Context): Promise<JsonBodyResult> {
  if (!isJsonContentType(c.req.header('content-type'))) {
    return { ok: false, response: apiError(c, 415, NOT_JSON_MESSAGE) };
  }
  try {
    return { ok: true, value: await c.req.json<unknown>() };
  } catch {
    return { ok: false, response: apiError(c, 400, MALFORMED_JSON_MESSAGE) };
  }
}

/**
 * Insists that POST, PUT and PATCH bodies are JSON, so handlers never meet form posts (which
 * browsers send cross-site without a preflight) or half-parsed input.
 */
export function requireJson(): MiddlewareHandler {
  return async (c, next) => {
    if (!hasRequestBody(c)) return next();
    const result = await readJsonBody(c);
    if (!result.ok) return result.response;
    await next();
  };
}
