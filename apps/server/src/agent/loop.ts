/**
 * Runs `step` again and again: after `step` resolves, waits the delay it returns (ms). A failing step is reported
 * and retried after the delay `onError` returns. stop() waits for a step under way to end.
 */
export class Loop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly step: () => Promise<number>,
    private readonly onError: (error: unknown) => number,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs the next step now instead of after its delay (e.g. a test or a fresh result). */
  wake(): void {
    if (this.timer !== null && !this.stopped) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.step()
        .catch((error: unknown) => this.onError(error))
        .then((next) => {
          this.running = null;
          this.schedule(next);
        });
    }, delay);
  }
}
