-- A run started by a playbook's webhook (on.webhook) keeps the request that started it: its method, URL, query
-- parameters, headers less credentials, and body, which templates read as .request (Mission Control's WebhookRequest).
alter table playbook_runs add column request jsonb;

-- One playbook per webhook path: the path is how a request finds its playbook (modules/playbooks/playbook-webhooks.ts).
create unique index playbooks_webhook_path_unique on playbooks ((spec -> 'on' -> 'webhook' ->> 'path'))
  where deleted_at is null and spec -> 'on' -> 'webhook' ->> 'path' is not null;
