-- statusExpr (Mission Control's Topology, ADR 0073 amendment): a component whose spec gives one stores the CEL text
-- here, and its status is what the expression says over its summary. A topology run works it out (the server runs CEL,
-- the database does not); between runs the rollup keeps such a component's summary current but leaves its status and
-- reason as the run set them, so a check flip under it cannot put the default rollup back over the expression's answer.
-- Its parent still rolls up from the status it has.
alter table components add column status_expr text;

create or replace function topology_refresh_components(p_ids uuid[]) returns void language plpgsql as $$
begin
  if p_ids is null then
    return;
  end if;
  update components c
     set status = case when t.status_expr is null then x.status else c.status end,
         status_reason = case when t.status_expr is null then x.status_reason else c.status_reason end,
         summary = x.summary
    from components t
    cross join lateral component_rollup(t.id) x
   where t.id = any(p_ids) and t.deleted_at is null and c.id = t.id
     and (c.status, c.status_reason, c.summary)
         is distinct from (case when t.status_expr is null then x.status else c.status end,
                           case when t.status_expr is null then x.status_reason else c.status_reason end,
                           x.summary);
end;
$$;
