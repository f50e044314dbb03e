import { ApiError, readBody } from './api-error';
import { guardedFetch, silentFetch } from './guarded-fetch';

export interface RequestJsonOptions extends Omit<RequestInit, 'body'> {
  /** A value sent as a JSON body. */
  json?: unknown;
  /** Skip the guarded error toast. */
  silent?: boolean;
}

/** Calls an Opsdeck endpoint through the guarded fetch and returns its JSON, throwing `ApiError` on failure. */
export async function requestJson<T>(url: string, options: RequestJsonOptions = {}): Promise<T> {
  const { json, silent, headers, ...init } = options;
  const finalHeaders = new Headers(headers);
  finalHeaders.set('Accept', 'application/json');
  if (json !== undefined) finalHeaders.set('Content-Type', 'application/json');
  const run = silent ? silentFetch : guardedFetch;
  const response = await run(url, { ...init, headers: finalHeaders, body: json === undefined ? undefined : JSON.stringify(json) });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}
