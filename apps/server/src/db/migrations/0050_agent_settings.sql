-- The agent form's kubernetes {enabled, interval} and pushTelemetry {enabled, topologyName} (spec 001 §3). An agent
-- reads them as one document when it connects, so they are kept as one; no column of 0002 fits them.
alter table agents add column settings jsonb not null default '{}'::jsonb;
