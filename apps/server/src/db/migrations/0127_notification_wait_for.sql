-- Mission Control's waitFor (issue #32, docs/notifications.md): a health event of a notification with
-- properties.waitFor is not sent at once. One send-history row (recipient 'waitFor', status 'pending') holds the
-- event until not_before; the release loop then sends it only if the resource still has that health, and records it
-- as skipped otherwise. payload is the queued event as the delivery consumer got it, so the release renders the same
-- variables the send would have.
alter table notification_send_history add column not_before timestamptz;
alter table notification_send_history add column payload jsonb;

-- The release loop's claim: due waiting rows, oldest first.
create index notification_send_history_waiting_idx on notification_send_history (not_before) where status = 'pending' and not_before is not null;
