-- event_queue_summary: the event queue's backlog per event name and consumer.
-- History: 0009 0093
-- consumer is null for events nobody subscribed to. The queue holds only the backlog (consumed events are deleted), so
-- grouping it whole stays cheap.
create view event_queue_summary as
select q.name,
       q.consumer,
       (count(*) filter (where q.error is null))::integer as pending,
       (count(*) filter (where q.error is not null))::integer as failed,
       round(avg(q.attempts), 2)::double precision as average_attempts,
       min(q.last_attempt) filter (where q.error is not null) as first_failure,
       max(q.last_attempt) filter (where q.error is not null) as last_failure,
       mode() within group (order by q.error) filter (where q.error is not null) as most_common_error
  from event_queue q
 group by q.name, q.consumer;
