import type pg from 'pg';
import type { z } from 'zod';
import type { pushReply } from '../modules/agent-push/protocol';
import { acknowledge, nextBatch } from './outbox';
import type { UpstreamClient } from './upstream-client';

export interface PusherOptions {
  pool: pg.Pool;
  client: UpstreamClient;
  batchRows: number;
  /** How long to wait when the outbox is empty. */
  idleMs: number;
  /** The first retry delay after a failed push; it doubles up to maxBackoffMs. */
  minBackoffMs: number;
  maxBackoffMs: number;
}

/**
 * One push step of the agent's loop: sends the next batch and deletes it only once upstream answered 2xx. A failure
 * (network, 4xx, 5xx) keeps the batch and its id for the retry, so upstream applies it exactly once.
 */
export class Pusher {
  private backoffMs: number;

  constructor(private readonly options: PusherOptions) {
    this.backoffMs = options.minBackoffMs;
  }

  /** Returns how long to wait before the next step. */
  async step(): Promise<number> {
    const batch = await nextBatch(this.options.pool, this.options.batchRows);
    if (batch === null) return this.options.idleMs;
    await this.options.client.call<z.infer<typeof pushReply>>('POST', '/api/agent/push', batch);
    await acknowledge(this.options.pool, batch.batchId);
    this.backoffMs = this.options.minBackoffMs;
    return 0;
  }

  /** The delay after a failed step: exponential, so a long outage costs few attempts. */
  failed(): number {
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
    return delay;
  }
}
