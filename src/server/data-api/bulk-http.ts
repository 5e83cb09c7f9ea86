/*
 * A bulk download over HTTP: the file streamed as the database yields it (never whole in memory),
 * gzip-compressed on request, and resumable with byte ranges.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { redactSecrets } from '../app/errors.ts';
import { bytesFrom, FileChangedError, type FileFacts } from './bulk-file.ts';
import type { DataDownload } from './pipeline.ts';

/** What the request asks beyond the file itself. */
export interface DownloadRequest {
  /** The Range header: only a single open or closed range of bytes (`bytes=N-`, `bytes=N-M`) is honoured. */
  range: string | undefined;
  /** The If-Range header: the range applies only while the file still has this tag. */
  ifRange: string | undefined;
  acceptEncoding: string | undefined;
  /** Where a failed stream is reported (default console.error). */
  log?: (line: string) => void;
}

/** A requested byte range, its end not yet bounded by the file's length. */
interface ByteRange {
  start: number;
  end: number | undefined;
}

/** The single range of a Range header; undefined for none or a form not honoured (the whole file is sent). */
export function parseRange(header: string | undefined): ByteRange | undefined {
  const match = header === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const start = Number(match[1]);
  const end = match[2] === undefined || match[2] === '' ? undefined : Number(match[2]);
  if (!Number.isSafeInteger(start) || (end !== undefined && end < start)) return undefined;
  return { start, end };
}

function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...rest] = part.trim().toLowerCase().split(';');
    const q = rest.map((item) => item.trim()).find((item) => item.startsWith('q='));
    return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * A web stream over the file's bytes: read only as fast as the client takes them, stopped when it
 * goes away (the cursor behind the rows is closed), and cut off (not ended normally) when a batch
 * fails, so a client never mistakes a partial file for a whole one. Reports the bytes sent at the end.
 */
function webStream(
  source: AsyncGenerator<Buffer>,
  onEnd: (bytes: number, failure: unknown) => void,
): ReadableStream<Uint8Array> {
  let sent = 0;
  // A client that goes away while a batch is read: the read's result has nowhere to go.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await source.next();
          if (cancelled) return;
          if (next.done === true) {
            controller.close();
            onEnd(sent, undefined);
            return;
          }
          sent += next.value.length;
          controller.enqueue(next.value);
        } catch (error) {
          if (cancelled) return;
          onEnd(sent, error);
          controller.error(new Error('bulk download failed'));
        }
      },
      async cancel() {
        cancelled = true;
        onEnd(sent, undefined);
        await source.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/** The same bytes gzip-compressed as they come (node:zlib), stopped with the client like the plain stream. */
function gzipStream(
  source: AsyncGenerator<Buffer>,
  onEnd: (bytes: number, failure: unknown) => void,
): ReadableStream<Uint8Array> {
  let sent = 0;
  const counted = (async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      sent += chunk.length;
      yield chunk;
    }
  })();
  const gzip = createGzip();
  pipeline(Readable.from(counted), gzip).then(
    () => onEnd(sent, undefined),
    // A client that went away closes the stream early: that is no failure of the file.
    (error: unknown) => onEnd(sent, isPrematureClose(error) ? undefined : error),
  );
  return Readable.toWeb(gzip) as ReadableStream<Uint8Array>;
}

function isPrematureClose(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || (error instanceof Error && error.name === 'AbortError');
}

function describe(error: unknown): string {
  if (error instanceof FileChangedError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The HTTP answer of an admitted bulk download: 200 with the whole file (gzip when accepted), 206 with
 * the tail from a `Range: bytes=N-` when the file is the one the client holds (If-Range, or none given),
 * 416 when the range starts beyond the end. The file's ETag is strong and names its bytes: it comes
 * from a complete pass of the same query today, and a Range request with no such pass yet is preceded
 * by one that only measures. Parts (profile-bulk) remain the coarse resume unit for parted files.
 */
export async function bulkResponse(
  download: DataDownload,
  request: DownloadRequest,
  baseHeaders: Record<string, string>,
): Promise<Response> {
  const { file } = download;
  const log = request.log ?? ((line: string) => console.error(line));
  const headers: Record<string, string> = { ...baseHeaders };
  if (download.limits !== undefined) Object.assign(headers, download.limits);
  headers['Content-Type'] = file.csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  headers['Content-Disposition'] = `attachment; filename="${file.fileName}"`;
  headers['Cache-Control'] = 'private, no-cache';
  headers['X-Data-Source'] = download.source;
  headers['Accept-Ranges'] = 'bytes';
  headers.Vary = 'apikey, Accept-Encoding';

  const wanted = parseRange(request.range);
  let facts: FileFacts | undefined = file.facts;
  if (wanted !== undefined && facts === undefined) facts = await file.measure();
  const ranged =
    wanted !== undefined &&
    facts !== undefined &&
    (request.ifRange === undefined || request.ifRange.trim() === facts.etag);
  if (ranged && facts !== undefined && wanted.start >= facts.length) {
    await download.refund(416);
    headers['Content-Range'] = `bytes */${facts.length}`;
    headers['Content-Type'] = 'application/json; charset=utf-8';
    delete headers['Content-Disposition'];
    const message = `The range starts at byte ${wanted.start}, beyond the end of the ${facts.length}-byte file.`;
    return new Response(JSON.stringify({ 'Error Message': message }), { status: 416, headers });
  }
  if (facts !== undefined) headers.ETag = facts.etag;

  const onEnd =
    (status: number) =>
    (bytes: number, failure: unknown): void => {
      download.finish(status, bytes);
      if (failure !== undefined) {
        log(
          redactSecrets(
            `[data-api] ${file.endpoint.path} download cut off after ${bytes} bytes: ${describe(failure)}`,
          ),
        );
      }
    };

  if (ranged && facts !== undefined) {
    const last = Math.min(wanted.end ?? facts.length - 1, facts.length - 1);
    headers['Content-Range'] = `bytes ${wanted.start}-${last}/${facts.length}`;
    headers['Content-Length'] = String(last - wanted.start + 1);
    const tail = bytesFrom(file.bytes(facts), wanted.start);
    const bounded = last === facts.length - 1 ? tail : upTo(tail, last - wanted.start + 1);
    return new Response(webStream(bounded, onEnd(206)), { status: 206, headers });
  }
  if (acceptsGzip(request.acceptEncoding)) {
    headers['Content-Encoding'] = 'gzip';
    // The compressed bytes are another representation: their tag says so.
    if (facts !== undefined) headers.ETag = `${facts.etag.slice(0, -1)}-gzip"`;
    return new Response(gzipStream(file.bytes(facts), onEnd(200)), { status: 200, headers });
  }
  if (facts !== undefined) headers['Content-Length'] = String(facts.length);
  return new Response(webStream(file.bytes(facts), onEnd(200)), { status: 200, headers });
}

/** The first `count` bytes of `source`. */
async function* upTo(source: AsyncGenerator<Buffer>, count: number): AsyncGenerator<Buffer> {
  let left = count;
  for await (const chunk of source) {
    if (left <= 0) return;
    const piece = chunk.length <= left ? chunk : chunk.subarray(0, left);
    left -= piece.length;
    yield piece;
    if (left <= 0) return;
  }
}
