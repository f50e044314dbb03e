import os from 'node:os';
import { randomUUID } from 'node:crypto';

/**
 * The lease_owner a scheduler writes into the rows it claims: unique to one scheduler instance, and readable in a
 * stuck row (which host, which process held it).
 */
export function leaseOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export interface PollLoopOptions {
  /** One poll: claims what is due and starts it. */
  pass: () => Promise<void>;
  pollMs: number;
  /** A pass that throws is reported here and polling goes on. */
  onError?: (error: unknown) => void;
  /**
   * A wake during a pass polls again as soon as that pass ends, instead of being dropped: for work requested or room
   * freed after the pass's claim was made (the playbook workers), which would otherwise wait a whole pollMs.
   */
  passAgainOnWake?: boolean;
}

/**
 * The polling side of a lease scheduler (checks, scrapers, playbook runs). Passes never overlap: the next one is timed
 * from the end of the last, and a wake during a pass is dropped because that pass is already claiming (unless
 * passAgainOnWake). Work a pass starts and does not await is tracked, so stop can abort it through `signal` and wait
 * until it has recorded its outcome.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private polling: Promise<void> | null = null;
  private again = false;
  private readonly work = new Set<Promise<void>>();
  private readonly controller = new AbortController();
  /** Aborted by stop, with the reason stop was given. */
  readonly signal = this.controller.signal;

  constructor(private readonly options: PollLoopOptions) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Polls at once unless stopped; during a pass, right after it with passAgainOnWake, else not at all. */
  wake(): void {
    if (!this.started) return;
    if (this.polling === null) this.schedule(0);
    else if (this.options.passAgainOnWake === true) this.again = true;
  }

  /** Keeps `work` (which must not reject) for stop to wait on. */
  track(work: Promise<void>): void {
    this.work.add(work);
    void work.finally(() => this.work.delete(work));
  }

  /** Stops polling, aborts `signal` and waits for the current pass and all tracked work. */
  async stop(reason?: unknown): Promise<void> {
    this.started = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.controller.abort(reason);
    await this.polling;
    await Promise.allSettled([...this.work]);
  }

  private schedule(delay: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.runPass().finally(() => {
        this.polling = null;
        const again = this.again;
        this.again = false;
        if (this.started) this.schedule(again ? 0 : this.options.pollMs);
      });
    }, delay);
  }

  private async runPass(): Promise<void> {
    try {
      await this.options.pass();
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
