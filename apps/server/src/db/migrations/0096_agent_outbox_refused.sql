-- A batch upstream refuses as malformed (a 4xx other than authentication or rate limits) would be refused again on
-- every retry and hold back everything after it. The agent sets it aside here, kept for inspection, and goes on.
-- PostgreSQL 15 syntax: it also runs on PGlite.
alter table agent_outbox add column refused_at timestamptz;
alter table agent_outbox add column refusal text;
drop index agent_outbox_batch_idx;
create index agent_outbox_batch_idx on agent_outbox (batch_id) where batch_id is not null and refused_at is null;
