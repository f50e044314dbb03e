/** One row of event_queue_summary: the events of one name for one consumer (null when nobody subscribed to it). */
export interface EventQueueSummaryRow {
  name: string;
  consumer: string | null;
  pending: number;
  failed: number;
  average_attempts: number | null;
  first_failure: string | null;
  last_failure: string | null;
  most_common_error: string | null;
}
