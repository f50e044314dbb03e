-- Mission Control's to.playbook (issue #32, docs/notifications.md): instead of a message, the notification requests a
-- run of a playbook on the event's resource. playbook_id is a fourth recipient column beside person_id, team_id and
-- custom_services (exactly one is set, by the save rules). A send-history row of such a recipient names the run it
-- requested, so the history leads to the run and the run's outcome can be read beside the send.
alter table notifications add column playbook_id uuid references playbooks (id) on delete set null;
alter table notification_send_history add column playbook_run_id uuid references playbook_runs (id) on delete set null;
