import { PostgrestClient } from '@supabase/postgrest-js';
import { guardedFetch, silentFetch } from './guarded-fetch';

// postgrest-js builds request URLs with `new URL()`, which needs an absolute base.
function dataApiUrl(): string {
  return new URL('/api/db', window.location.origin).href;
}

/** The client for the PostgREST-compatible data API. Failures toast the server's message. */
export const db = new PostgrestClient(dataApiUrl(), { fetch: guardedFetch });

/** The same client for callers that report failures themselves. */
export const silentDb = new PostgrestClient(dataApiUrl(), { fetch: silentFetch });
