/**
 * Runs a round now, then again an interval after each round ends, until stopped: rounds never
 * overlap, and the timer does not keep the process alive. The status probes and the renewals both
 * run on it in the server process.
 */
export class Repeat {
  readonly intervalMs: number;
  private readonly round: () => Promise<unknown>;
  private timer: NodeJS.Timeout | undefined;
  private last: Promise<unknown> | undefined;
  private running = false;

  constructor(intervalMs: number, round: () => Promise<unknown>) {
    this.intervalMs = intervalMs;
    this.round = round;
  }

  /** Runs the first round now and schedules the next ones. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = (): void => {
      this.timer = undefined;
      this.last = this.round().catch(() => undefined);
      void this.last.finally(() => {
        if (this.running) {
          this.timer = setTimeout(tick, this.intervalMs);
          this.timer.unref();
        }
      });
    };
    tick();
  }

  /** Stops the schedule and waits for the round in flight. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.last;
  }
}
