import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from '@opsdeck/shared';
import { guardedFetch, silentFetch } from './guarded-fetch';

// postgrest-js builds request URLs with `new URL()`, which needs an absolute base.
function dataApiUrl(): string {
  return new URL('/api/db', window.location.origin).href;
}

/**
 * The client for the PostgREST-compatible data API. Failures toast the server's message. Typed by the generated
 * `Database` (ADR 0067), so a select string's columns give the rows' types.
 */
export const db = new PostgrestClient<Database>(dataApiUrl(), { fetch: guardedFetch });

/** The same client for callers that report failures themselves. */
export const silentDb = new PostgrestClient<Database>(dataApiUrl(), { fetch: silentFetch });

/**
 * Clients for calls that choose their table at run time — the generic settings pages (`lib/settings-resources`, from a
 * `SettingsResourceKind`) and pickers over several kinds of resource: no relation is known when they compile, so
 * postgrest-js cannot type their rows and they stay as every call was before ADR 0067. Everything else uses `db` or
 * `silentDb`.
 */
export const dynamicDb = new PostgrestClient(dataApiUrl(), { fetch: guardedFetch });

/** `dynamicDb` for callers that report failures themselves. */
export const silentDynamicDb = new PostgrestClient(dataApiUrl(), { fetch: silentFetch });
