-- Sorting incidents by severity compared the words, so Blocker came before Low. Severities are ranked in the order
-- of spec 000 (info lowest, critical highest; `severityRank` in packages/shared/src/incidents.ts), and the rank is a
-- stored column so the data API can order and page by it; an incident without a severity ranks 0, below them all.
-- The list orders by rank then id, in one direction, so one index serves both directions.

alter table incidents add column severity_rank smallint not null generated always as (
  case severity
    when 'info' then 1
    when 'warning' then 2
    when 'low' then 3
    when 'medium' then 4
    when 'high' then 5
    when 'blocker' then 6
    when 'critical' then 7
    else 0
  end
) stored;

create index incidents_severity_rank_idx on incidents (severity_rank, id);
