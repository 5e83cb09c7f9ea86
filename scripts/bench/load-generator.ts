import { fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { summarize, type LatencySummary } from './stats.ts';

/**
 * HTTP load for `npm run bench:api`: a fixed number of keep-alive connections, each sending the next
 * request as soon as the previous answer is complete (closed loop, no pipelining), or, with `rate`,
 * on a fixed schedule (open loop) to measure latency at a given load rather than at saturation. It speaks HTTP/1.1
 * over raw sockets because Node's http client costs more CPU per request than the server under test,
 * which would make the generator, not the API, the bottleneck on a small machine.
 */

export interface LoadOptions {
  port: number;
  /** Request target: path and query string. */
  path: string;
  connections: number;
  /** Answers before the measured window starts are not counted (JIT warm-up, caches filling). */
  warmupMs: number;
  durationMs: number;
  /**
   * Requests per second over all connections, sent on schedule. Unset: as fast as answers come back,
   * where latency is only connections ÷ throughput (queueing), not the time an answer takes.
   */
  rate?: number;
}

export interface LoadResult {
  path: string;
  /** Answers completed inside the measured window, whatever their status. */
  answers: number;
  /** Every answer of the run, warm-up included (to divide the server's CPU time by). */
  totalAnswers: number;
  /** 200 answers inside the window: the only ones counted as successes. */
  ok: number;
  /** Answers with another status, by status code. */
  otherStatuses: Record<string, number>;
  /** Connection failures, resets and unparsable answers (whole run, warm-up included). */
  errors: number;
  errorSamples: string[];
  /** Length of the measured window. */
  elapsedMs: number;
  /** 200 answers per second. */
  requestsPerSecond: number;
  /** Latency of the 200 answers in the window. */
  latency: LatencySummary;
  /** Mean body size of the 200 answers. */
  meanBodyBytes: number;
  /** CPU the generator used, in percent of one core: near 100 means it, not the server, set the pace. */
  generatorCpuPercent: number;
  generatorCpuMs: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const MAX_ERROR_SAMPLES = 5;

interface Answer {
  status: number;
  bodyBytes: number;
}

/** Incremental parser for the answers of one connection (Content-Length or chunked bodies). */
class AnswerParser {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Answer[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const answers: Answer[] = [];
    for (;;) {
      const parsed = this.next();
      if (parsed === undefined) break;
      answers.push(parsed.answer);
      this.buffer = this.buffer.subarray(parsed.consumed);
    }
    return answers;
  }

  private next(): { answer: Answer; consumed: number } | undefined {
    const buffer = this.buffer;
    const headerEnd = buffer.indexOf(HEADER_END);
    if (headerEnd < 0) return undefined;
    const head = buffer.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    if (!head.startsWith('HTTP/1.') || !Number.isInteger(status)) {
      throw new Error(`unparsable status line: ${head.slice(0, 40)}`);
    }
    const lower = head.toLowerCase();
    const bodyStart = headerEnd + HEADER_END.length;
    const lengthMatch = /\r\ncontent-length:\s*(\d+)/.exec(lower);
    if (lengthMatch?.[1] !== undefined) {
      const length = Number(lengthMatch[1]);
      if (buffer.length < bodyStart + length) return undefined;
      return { answer: { status, bodyBytes: length }, consumed: bodyStart + length };
    }
    if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) {
      let offset = bodyStart;
      let bodyBytes = 0;
      for (;;) {
        const lineEnd = buffer.indexOf(CRLF, offset);
        if (lineEnd < 0) return undefined;
        const size = Number.parseInt(buffer.toString('latin1', offset, lineEnd), 16);
        if (!Number.isFinite(size)) throw new Error('unparsable chunk size');
        const dataEnd = lineEnd + CRLF.length + size;
        if (buffer.length < dataEnd + CRLF.length) return undefined;
        offset = dataEnd + CRLF.length;
        if (size === 0) return { answer: { status, bodyBytes }, consumed: offset };
        bodyBytes += size;
      }
    }
    // No body framing: only bodiless answers (204, 304) are expected here.
    return { answer: { status, bodyBytes: 0 }, consumed: bodyStart };
  }
}

/** Runs the load in this process; `runLoadInChild` is what the benchmark calls. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const request = Buffer.from(
    `GET ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nConnection: keep-alive\r\nAccept: application/json\r\n\r\n`,
    'latin1',
  );
  const rate = options.rate;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const windowStart = started + options.warmupMs;
  const windowEnd = windowStart + options.durationMs;
  let latencies = new Float64Array(1 << 16);
  let latencyCount = 0;
  let answers = 0;
  let totalAnswers = 0;
  let ok = 0;
  let okBytes = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const otherStatuses: Record<string, number> = {};

  const recordError = (message: string): void => {
    errors += 1;
    if (errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(message);
  };

  const record = (answer: Answer, sentAt: number, at: number): void => {
    totalAnswers += 1;
    if (sentAt < windowStart || at > windowEnd) return;
    answers += 1;
    if (answer.status !== 200) {
      const key = String(answer.status);
      otherStatuses[key] = (otherStatuses[key] ?? 0) + 1;
      return;
    }
    ok += 1;
    okBytes += answer.bodyBytes;
    if (latencyCount === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[latencyCount++] = at - sentAt;
  };

  /** One connection's loop; reconnects after a failure until the window is over. */
  const connection = (): Promise<void> =>
    new Promise((resolve) => {
      let socket: Socket | undefined;
      let parser = new AnswerParser();
      let sentAt = 0;
      let waiting = false;
      // On a schedule, connections start spread over one interval and then keep their own beat.
      const interval = rate === undefined ? 0 : (options.connections / rate) * 1000;
      let dueAt = performance.now() + Math.random() * interval;
      let timer: NodeJS.Timeout | undefined;
      let answeredLate = false;

      const send = (): void => {
        timer = undefined;
        if (socket === undefined) return;
        const now = performance.now();
        if (now >= windowEnd) {
          socket.destroy();
          socket = undefined;
          resolve();
          return;
        }
        if (rate !== undefined) {
          if (now < dueAt) {
            timer = setTimeout(send, dueAt - now);
            return;
          }
          // A request held back by a slow answer counts from when it was due (no coordinated
          // omission); one the generator's own timer sent late counts from when it left.
          sentAt = answeredLate ? dueAt : now;
          dueAt += interval;
        } else {
          sentAt = now;
        }
        waiting = true;
        socket.write(request);
      };

      const open = (): void => {
        parser = new AnswerParser();
        const current = connect({ host: '127.0.0.1', port: options.port });
        socket = current;
        current.setNoDelay(true);
        current.on('connect', send);
        current.on('data', (chunk: Buffer) => {
          let parsed: Answer[];
          try {
            parsed = parser.push(chunk);
          } catch (error) {
            recordError(error instanceof Error ? error.message : String(error));
            current.destroy();
            return;
          }
          if (parsed.length === 0) return;
          const at = performance.now();
          for (const answer of parsed) record(answer, sentAt, at);
          waiting = false;
          answeredLate = rate !== undefined && at > dueAt;
          send();
        });
        current.on('error', (error) => {
          recordError(error.message);
        });
        current.on('close', () => {
          if (socket !== current) return;
          socket = undefined;
          if (timer !== undefined) clearTimeout(timer);
          if (waiting) recordError('connection closed before the answer was complete');
          waiting = false;
          if (performance.now() >= windowEnd) resolve();
          else setTimeout(open, 10);
        });
      };
      open();
    });

  await Promise.all(Array.from({ length: options.connections }, connection));
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = performance.now() - started;
  const elapsedMs = options.durationMs;
  return {
    path: options.path,
    answers,
    totalAnswers,
    ok,
    otherStatuses,
    errors,
    errorSamples,
    elapsedMs,
    requestsPerSecond: ok / (elapsedMs / 1000),
    latency: summarize(latencies.subarray(0, latencyCount)),
    meanBodyBytes: ok === 0 ? 0 : okBytes / ok,
    generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/**
 * Runs the load in a child process, so the generator has its own event loop (and core) and never
 * competes with the server for the one it is measuring.
 */
export function runLoadInChild(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, [], { serialization: 'advanced', stdio: 'inherit' });
    let result: LoadResult | undefined;
    child.on('message', (message) => {
      result = message as LoadResult;
      child.disconnect();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result !== undefined) resolve(result);
      else reject(new Error(`load generator exited with code ${String(code)} without a result`));
    });
    child.send(options);
  });
}

if (import.meta.main) {
  process.once('message', (message) => {
    void runLoad(message as LoadOptions).then(
      (result) => process.send?.(result),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
