-- Second factors (TOTP, WebAuthn, backup recovery codes) and the settings flow that manages them.
--
-- What a flow must remember between its requests without showing it: the WebAuthn challenge it handed out, and in a
-- settings flow the TOTP secret and recovery codes offered but not yet confirmed. The secrets in it are encrypted
-- with the server key (auth/second-factor-store.ts); the flow's `ui` never holds them, they are filled in when the
-- flow is sent to its owner.
alter table self_service_flows add column internal_context jsonb not null default '{}'::jsonb;

-- The credentials' config (identity_credentials.config) by type, all secrets encrypted with the server key:
--   totp:          {secret, last_used_step}          secret = the base32 key; a code of last_used_step or before is spent
--   lookup_secret: {codes: [{hash, used_at}], sealed} hash = keyed HMAC for the lookup, sealed = the codes for 'reveal'
--   webauthn:      {credentials: [{id, publicKey, counter, transports, name, created_at}]}

alter table sessions add constraint sessions_aal_check check (aal in ('aal1', 'aal2'));
