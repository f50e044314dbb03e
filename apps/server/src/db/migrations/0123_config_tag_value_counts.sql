-- The catalog's label and tag filters listed each known value only if some live item still carried it, found by a GIN
-- probe per value: a value on 50,000 items made the probe read all 50,000 entries, and the labels list took 0.8 s at
-- 100,000 items, holding the embedded database's one connection while the catalog's first rows waited. Each value now
-- keeps the count of live items carrying it, moved by the statement that changes them (issue #33).
alter table config_tag_values add column items integer not null default 0;

update config_tag_values v
   set items = counted.items
  from (select 'tag' as kind, t.key, t.value, count(*)::int as items
          from config_items c, jsonb_each_text(c.tags) t
         where c.deleted_at is null and jsonb_typeof(c.tags) = 'object'
         group by t.key, t.value
        union all
        select 'label', l.key, l.value, count(*)::int
          from config_items c, jsonb_each_text(c.labels) l
         where c.deleted_at is null and jsonb_typeof(c.labels) = 'object'
         group by l.key, l.value) counted
 where v.kind = counted.kind and v.key = counted.key and v.value = counted.value;

-- The (kind, key, value) pairs an item's tags and labels hold.
create or replace function config_tag_pairs(tags jsonb, labels jsonb)
returns table (kind text, key text, value text) language sql immutable as $$
  select 'tag', t.key, t.value from jsonb_each_text(case when jsonb_typeof(tags) = 'object' then tags else '{}' end) t
  union all
  select 'label', l.key, l.value from jsonb_each_text(case when jsonb_typeof(labels) = 'object' then labels else '{}' end) l
$$;

-- One function for the three events: each branch names only the transition tables its trigger has. An update counts
-- only the items whose tags, labels or liveness changed, so a statement that sets statuses costs a join, not a count.
-- Rows are written in key order so that two statements moving the same values cannot deadlock on them.
create or replace function config_tag_values_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into config_tag_values as v (kind, key, value, items)
    select p.kind, p.key, p.value, count(*)::int
      from new_items n, config_tag_pairs(n.tags, n.labels) p
     where n.deleted_at is null
     group by p.kind, p.key, p.value
     order by p.kind, p.key, p.value
    on conflict (kind, key, value) do update set items = v.items + excluded.items;
  elsif tg_op = 'DELETE' then
    update config_tag_values v
       set items = v.items - gone.items
      from (select p.kind, p.key, p.value, count(*)::int as items
              from old_items o, config_tag_pairs(o.tags, o.labels) p
             where o.deleted_at is null
             group by p.kind, p.key, p.value
             order by p.kind, p.key, p.value) gone
     where v.kind = gone.kind and v.key = gone.key and v.value = gone.value;
  else
    with moved as (
      select o.tags as old_tags, o.labels as old_labels, o.deleted_at is null as old_live,
             n.tags as new_tags, n.labels as new_labels, n.deleted_at is null as new_live
        from old_items o join new_items n on n.id = o.id
       where (o.tags, o.labels, o.deleted_at is null) is distinct from (n.tags, n.labels, n.deleted_at is null)
    ), deltas as (
      select p.kind, p.key, p.value, 1 as delta from moved m, config_tag_pairs(m.new_tags, m.new_labels) p where m.new_live
      union all
      select p.kind, p.key, p.value, -1 from moved m, config_tag_pairs(m.old_tags, m.old_labels) p where m.old_live
    )
    insert into config_tag_values as v (kind, key, value, items)
    select d.kind, d.key, d.value, sum(d.delta)::int
      from deltas d
     group by d.kind, d.key, d.value
    having sum(d.delta) <> 0
     order by d.kind, d.key, d.value
    on conflict (kind, key, value) do update set items = v.items + excluded.items;
  end if;
  return null;
end;
$$;

drop trigger config_items_tag_values_insert on config_items;
drop trigger config_items_tag_values_update on config_items;
drop function config_tag_values_collect();
create trigger config_items_tag_values_insert after insert on config_items
  referencing new table as new_items for each statement execute function config_tag_values_count();
create trigger config_items_tag_values_update after update on config_items
  referencing old table as old_items new table as new_items for each statement execute function config_tag_values_count();
create trigger config_items_tag_values_delete after delete on config_items
  referencing old table as old_items for each statement execute function config_tag_values_count();

create or replace view config_tags as
select v.key, v.value from config_tag_values v where v.kind = 'tag' and v.items > 0;

create or replace view config_labels as
select v.key, v.value from config_tag_values v where v.kind = 'label' and v.items > 0;
