-- Postgres connections marked `embedded` ran their checks on the console's own database pool, with its owner's
-- rights: an editor's query could grant itself admin. The mechanism is gone (the probes now refuse the console's own
-- database however it is addressed), so the connections that used it are removed, secrets and all.
delete from connections where type = 'postgres' and properties->>'embedded' = 'true';

-- The demo check that used the seeded one, where it is still as seeded: its canary no longer lists it and the check
-- row stops being scheduled. A spec someone edited is left alone; its check now fails with a clear message.
update canaries
   set spec = spec - 'postgres'
 where name = 'platform-basics'
   and deleted_at is null
   and spec->'postgres' = '[{"name": "database/checks-table", "connection": "connection://default/opsdeck-database", "query": "select 1 from checks limit 1", "results": 1}]'::jsonb;

update checks k
   set deleted_at = now()
  from canaries c
 where k.canary_id = c.id
   and c.name = 'platform-basics'
   and k.type = 'postgres'
   and k.name = 'database/checks-table'
   and k.spec->>'connection' = 'connection://default/opsdeck-database'
   and k.deleted_at is null;
