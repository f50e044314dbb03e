import type { ViewRow } from '@opsdeck/shared';

/** One row of event_queue_summary: the events of one name for one consumer (null when nobody subscribed to it). */
export type EventQueueSummaryRow = ViewRow<'event_queue_summary'>;
