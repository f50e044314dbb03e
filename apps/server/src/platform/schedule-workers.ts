import type { FastifyInstance } from 'fastify';
import type { BusEvent, EventBus } from './event-bus';

/** Catches edits the bus does not carry: those of other processes, and of rows written outside the data API. */
const RECONCILE_MS = 10_000;

export interface ScheduleWorkers {
  scheduler: { start(): void; stop(): Promise<void>; wake(): void };
  /** Brings the schedule table in line with the rows it schedules; resolves to how many rows became due. */
  sync: () => Promise<number>;
  /** Published by Run Now: the scheduler claims the row at once instead of at its next poll. */
  requestedEvent: string;
  /** The event that says the scheduled rows were written (and which of those events count), so the sync runs at once. */
  written: { event: string; matches: (event: BusEvent) => boolean };
  /** Names the sync in the error log. */
  label: string;
}

/**
 * Keeps a lease scheduler's table in step with what it schedules (at once on a write this process hears, and every
 * ten seconds for the rest), starts the scheduler once the first sync is done and stops it when the server closes.
 * Syncs never overlap: each waits for the one before.
 */
export function startScheduleWorkers(scoped: FastifyInstance, bus: EventBus, workers: ScheduleWorkers): void {
  const { scheduler, sync, written } = workers;
  let reconciling: Promise<unknown> = Promise.resolve();
  const reconcile = (): void => {
    reconciling = reconciling
      .then(() => sync())
      .then((due) => {
        if (due > 0) scheduler.wake();
      })
      .catch((error: unknown) => scoped.log.error({ err: error }, `${workers.label} schedule sync`));
  };
  const timer = setInterval(reconcile, RECONCILE_MS);
  const unsubscribe = [
    bus.subscribe(workers.requestedEvent, () => scheduler.wake()),
    bus.subscribe(written.event, (event) => {
      if (written.matches(event)) reconcile();
    }),
  ];
  scoped.addHook('onReady', async () => {
    reconcile();
    await reconciling;
    scheduler.start();
  });
  scoped.addHook('preClose', async () => {
    clearInterval(timer);
    for (const stop of unsubscribe) stop();
    await reconciling;
    await scheduler.stop();
  });
}
