import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { EventBus } from './event-bus';

/** Published on the bus after a commit that enqueued events, so consumers in this process pick them up at once. */
export const EVENT_QUEUE_WAKE = 'event_queue.enqueued';

export interface QueuedEvent {
  id: string;
  name: string;
  properties: Record<string, unknown>;
  attempts: number;
  priority: number;
  /** As the pool returns timestamps: text. */
  created_at: string;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

/** Adds an event inside the caller's transaction; it becomes visible to consumers when that transaction commits. */
export async function enqueue(client: Queryable, name: string, properties: Record<string, unknown>, priority = 0): Promise<string> {
  const result = await client.query<{ id: string }>(
    'insert into event_queue (name, properties, priority) values ($1, $2, $3) returning id',
    [name, JSON.stringify(properties), priority],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('event_queue insert returned no id');
  return id;
}

export type EventHandler = (event: QueuedEvent) => Promise<void>;

export interface EventQueueOptions {
  pool: pg.Pool;
  /**
   * Names this consumer: it subscribes to its handlers' event names and gets its own copy of each event written after
   * that (ADR 0055), and each pass that handled events writes a job_history row 'EventQueueConsumer:<consumer>'.
   * Without it the consumer takes the events nobody subscribed to.
   */
  consumer?: string;
  bus: EventBus;
  handlers: Readonly<Record<string, EventHandler>>;
  /** How often to look for work when nothing woke the consumer. */
  pollIntervalMs?: number;
  /**
   * After a claim, the row stays invisible to other consumers for this long, so a slow handler is not run twice. A
   * consumer that died mid-event leaves it to be retried once the lease has passed. Handlers must finish within it.
   */
  leaseMs?: number;
  /** Retry delay after the first failure; doubled per further failure up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** After this many failed attempts an event stays in the table with its error, for people to look at. */
  maxAttempts?: number;
  /**
   * Events claimed by one statement and deleted by one once handled: fewer round trips per event. Every event of a
   * claim shares one lease, so claimBatch × a handler's longest run must stay within leaseMs.
   */
  claimBatch?: number;
  onError?: (error: unknown, event: QueuedEvent | null) => void;
}

interface ClaimedRow {
  id: string;
  name: string;
  properties: Record<string, unknown> | null;
  attempts: number;
  priority: number;
  created_at: string;
}

/**
 * Consumes event_queue rows of the names it has handlers for. A claim is one UPDATE … WHERE id IN (SELECT … LIMIT n FOR
 * UPDATE SKIP LOCKED) statement that stamps attempts and last_attempt, so no transaction stays open while a handler
 * talks to the outside world (PGlite has a single backend: an open transaction would stall every other request).
 * Handled rows are deleted together after the claim's pass; a failure records the error and leaves the row for a later
 * attempt.
 */
export class EventQueueConsumer {
  private readonly options: Required<Omit<EventQueueOptions, 'onError' | 'consumer'>> & Pick<EventQueueOptions, 'onError'>;
  readonly consumer: string | null;
  private subscribed: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeRequested = false;
  private started = false;
  private stopping = false;
  private unsubscribe: (() => void) | null = null;

  constructor(options: EventQueueOptions) {
    this.options = {
      pollIntervalMs: 1000,
      leaseMs: 60_000,
      backoffMs: 30_000,
      maxBackoffMs: 3_600_000,
      maxAttempts: 5,
      claimBatch: 50,
      ...options,
    };
    this.consumer = options.consumer ?? null;
  }

  /**
   * Records the subscriptions of a named consumer: it gets a copy of every event of its names written from then on.
   * Older events stay with consumer null (shown as pending) until retention removes them, so a consumer starting on a
   * busy database does not first work through a backlog its own start-up already covers.
   */
  subscribe(): Promise<void> {
    if (this.consumer === null) return Promise.resolve();
    this.subscribed ??= this.options.pool
      .query(`insert into event_queue_subscriptions (consumer, name) select $1, unnest($2::text[]) on conflict do nothing`, [this.consumer, this.names])
      .then(() => undefined)
      .catch((error: unknown) => {
        this.subscribed = null;
        throw error;
      });
    return this.subscribed;
  }

  get names(): string[] {
    return Object.keys(this.options.handlers);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    // A bus event of one of its names means this process just committed such an event: look now, not at the next poll.
    const unsubscribers = [EVENT_QUEUE_WAKE, ...this.names].map((name) => this.options.bus.subscribe(name, () => this.wake()));
    this.unsubscribe = () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
    };
    this.wake();
  }

  /** Stops polling and waits for the event being handled, if any. */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for work now rather than at the next poll. */
  wake(): void {
    if (!this.started) return;
    if (this.running !== null) {
      this.wakeRequested = true;
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => this.options.onError?.(error, null))
      .finally(() => {
        this.running = null;
        if (!this.started) return;
        if (this.wakeRequested) {
          this.wakeRequested = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.options.pollIntervalMs);
        this.timer.unref();
      });
  }

  /** Handles events until none is claimable; returns how many were handled. Also used directly by tests. */
  async drain(): Promise<number> {
    await this.subscribe();
    const started = new Date();
    let handled = 0;
    const errors: string[] = [];
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) break;
      const done: string[] = [];
      let next = 0;
      for (; next < claimed.length && !this.stopping; next += 1) {
        const event = claimed[next] as QueuedEvent;
        handled += 1;
        const error = await this.handle(event);
        if (error === null) done.push(event.id);
        else errors.push(error);
      }
      if (done.length > 0) await this.options.pool.query('delete from event_queue where id = any ($1::uuid[])', [done]);
      // Stopping: give back what this pass claimed but did not start, uncounted and due at once for the next consumer.
      const untouched = claimed.slice(next).map((event) => event.id);
      if (untouched.length > 0) {
        await this.options.pool.query('update event_queue set attempts = attempts - 1, last_attempt = null where id = any ($1::uuid[])', [untouched]);
      }
      if (this.stopping) break;
    }
    if (handled > 0 && this.consumer !== null) await this.recordPass(started, handled, errors);
    return handled;
  }

  private async recordPass(started: Date, handled: number, errors: readonly string[]): Promise<void> {
    const ended = new Date();
    const status = errors.length === 0 ? 'SUCCESS' : errors.length === handled ? 'FAILED' : 'WARNING';
    await this.options.pool.query(
      `insert into job_history (name, resource_type, status, success_count, error_count, duration_millis, hostname, time_start, time_end, details)
       values ($1, 'event_queue', $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        `EventQueueConsumer:${this.consumer ?? ''}`,
        status,
        handled - errors.length,
        errors.length,
        ended.getTime() - started.getTime(),
        hostname(),
        started.toISOString(),
        ended.toISOString(),
        JSON.stringify(errors.length === 0 ? {} : { errors: errors.slice(0, 20) }),
      ],
    );
  }

  private async claim(): Promise<QueuedEvent[]> {
    const o = this.options;
    const params: unknown[] = [this.names, o.maxAttempts, o.leaseMs, o.backoffMs, o.maxBackoffMs, o.claimBatch];
    // Two spellings rather than one `is not distinct from`, so the claim stays on event_queue_pick_idx.
    const result = await o.pool.query<ClaimedRow>(
      `update event_queue q
          set attempts = q.attempts + 1, last_attempt = clock_timestamp()
        where q.id in (
          select e.id from event_queue e
           where e.name = any ($1::text[])
             and ${this.consumer === null ? 'e.consumer is null' : 'e.consumer = $7'}
             and e.attempts < $2
             and (e.last_attempt is null
                  or e.last_attempt <= clock_timestamp() - make_interval(secs => greatest(
                       $3::double precision,
                       least($4::double precision * power(2, greatest(e.attempts - 1, 0)), $5::double precision)) / 1000))
           order by e.priority desc, e.created_at
           limit $6
           for update skip locked)
       returning q.id, q.name, q.properties, q.attempts, q.priority, q.created_at`,
      this.consumer === null ? params : [...params, this.consumer],
    );
    // UPDATE … RETURNING keeps no order: handle them as they were picked.
    return result.rows
      .map((row) => ({ ...row, properties: row.properties ?? {} }))
      .sort((a, b) => b.priority - a.priority || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /** Returns the error message of a failed event, null when it was handled. */
  private async handle(event: QueuedEvent): Promise<string | null> {
    const handler = this.options.handlers[event.name];
    try {
      if (handler === undefined) throw new Error(`No handler for event ${event.name}`);
      await handler(event);
      return null;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 4000);
      await this.options.pool.query('update event_queue set error = $2 where id = $1', [event.id, message]);
      this.options.onError?.(error, event);
      return message;
    }
  }
}

/** Starts the consumers when the app is ready and stops them when it closes: how worker plugins run theirs. */
export function consumeWhileOpen(app: FastifyInstance, consumers: readonly EventQueueConsumer[]): void {
  app.addHook('onReady', async () => {
    for (const consumer of consumers) consumer.start();
  });
  app.addHook('onClose', async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
  });
}
