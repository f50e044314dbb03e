import type pg from 'pg';
import type { z } from 'zod';
import type { pushReply } from '../modules/agent-push/protocol';
import { acknowledge, nextBatch, refuse } from './outbox';
import { UpstreamError, type UpstreamClient } from './upstream-client';

export interface PusherOptions {
  pool: pg.Pool;
  client: UpstreamClient;
  batchRows: number;
  /** How long to wait when the outbox is empty. */
  idleMs: number;
  /** The first retry delay after a failed push; it doubles up to maxBackoffMs. */
  minBackoffMs: number;
  maxBackoffMs: number;
  /** Told about a batch set aside because upstream refused it as malformed. */
  onRefused: (batchId: string, rows: number, reason: string) => void;
}

/**
 * A 4xx that a resend cannot cure (the batch itself is malformed); 401/403 (a rotated token, fixed by the operator),
 * 408 and 429 are retried like an outage.
 */
function refusedForGood(status: number | null): boolean {
  return status !== null && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

/**
 * One push step of the agent's loop: sends the next batch and deletes it only once upstream answered 2xx. A failure
 * (network, 5xx, authentication) keeps the batch and its id for the retry, so upstream applies it exactly once; a batch
 * refused as malformed is set aside in the outbox so the rest still flows.
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
    try {
      await this.options.client.call<z.infer<typeof pushReply>>('POST', '/api/agent/push', batch);
    } catch (error) {
      if (!(error instanceof UpstreamError) || !refusedForGood(error.status)) throw error;
      await refuse(this.options.pool, batch.batchId, error.message);
      this.options.onRefused(batch.batchId, batch.rows.length, error.message);
      return 0;
    }
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
