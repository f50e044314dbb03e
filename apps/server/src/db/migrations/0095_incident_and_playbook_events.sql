-- Incident changes and playbook approval-spec changes reach the event queue in the writer's transaction (issue #15
-- item 4), only for names some consumer subscribed to, like the catalog and component events of 0093.
-- PostgreSQL 15 syntax: it also runs on PGlite.

-- Every incident changelog row is the incident change it records; its type is the event name.
create or replace function incident_histories_events() returns trigger language plpgsql as $$
begin
  insert into event_queue (name, properties)
  select h.type,
         jsonb_build_object('id', h.incident_id, 'incident_id', h.incident_id, 'history_id', h.id, 'description', h.description,
                            'created_by', h.created_by, 'responder_id', h.responder_id, 'evidence_id', h.evidence_id,
                            'hypothesis_id', h.hypothesis_id, 'comment_id', h.comment_id)
    from new_histories h
   where event_queue_wanted(h.type);
  return null;
end $$;
create trigger incident_histories_events after insert on incident_histories
  referencing new table as new_histories for each statement execute function incident_histories_events();

-- playbook.spec.approval.updated when who may approve a playbook's runs changes.
create or replace function playbooks_approval_events() returns trigger language plpgsql as $$
begin
  if not event_queue_wanted('playbook.spec.approval.updated') then
    return null;
  end if;
  insert into event_queue (name, properties)
  select 'playbook.spec.approval.updated',
         jsonb_build_object('id', n.id, 'playbook_id', n.id, 'name', n.name, 'approval', n.spec -> 'approval',
                            'previous_approval', o.spec -> 'approval')
    from new_playbooks n
    join old_playbooks o on o.id = n.id
   where n.deleted_at is null and (n.spec -> 'approval') is distinct from (o.spec -> 'approval');
  return null;
end $$;
create trigger playbooks_approval_events after update on playbooks
  referencing old table as old_playbooks new table as new_playbooks for each statement execute function playbooks_approval_events();
