-- Sign-in throttling per (identifier, client address) and per address (ADR 0011). Both are stored as HMAC-SHA-256
-- under a sub-key of the server key (auth/login-throttle.ts), so the table says nothing about who tried, from where,
-- or which password was typed into the identifier field, to anybody without the key.

-- The old rows are unsalted SHA-256 of identifiers: they cannot be re-keyed (the identifiers are not known) and only
-- ever counted for five minutes, so they go.
delete from login_failures;

alter table login_failures add column address_hash text not null;

drop index login_failures_identifier_idx;
-- Serves the per-pair count, the identifier's failures from elsewhere, and the delete on success.
create index login_failures_identifier_idx on login_failures (identifier_hash, address_hash, failed_at);
create index login_failures_address_idx on login_failures (address_hash, failed_at);
create index login_failures_failed_at_idx on login_failures (failed_at);
