import { ApiError, readBody } from '@/lib/api/api-error';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@/lib/api/guarded-fetch';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Identity calls bypass the guarded fetch: a 401 or 400 here is part of the flow (show the form, show field
 * messages), not a reason to bounce to sign-in or toast.
 */
export async function authRequest(url: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  const { json, headers, ...rest } = init;
  const finalHeaders = new Headers(headers);
  finalHeaders.set('Accept', 'application/json');
  finalHeaders.set(CSRF_HEADER, CSRF_HEADER_VALUE);
  if (json !== undefined) finalHeaders.set('Content-Type', 'application/json');
  const response = await fetch(url, {
    credentials: 'same-origin',
    ...rest,
    headers: finalHeaders,
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  return { status: response.status, body: await readBody(response) };
}

export function isFlowBody(body: unknown): body is { id: string; ui: { nodes: unknown[] } } {
  return isRecord(body) && typeof body.id === 'string' && isRecord(body.ui) && Array.isArray(body.ui.nodes);
}

/** The identity error id of a failed call: Kratos nests it as `error.id`; Opsdeck's error catalogue uses `code`. */
export function flowErrorId(error: unknown): string | null {
  if (!(error instanceof ApiError) || !isRecord(error.body)) return null;
  const body: Record<string, unknown> = error.body;
  if (isRecord(body.error) && typeof body.error.id === 'string') return body.error.id;
  if (typeof body.code === 'string') return body.code;
  return typeof body.id === 'string' && !isFlowBody(body) ? body.id : null;
}

/** Where the identity service asks the browser to go, if it does. */
export function flowRedirect(error: unknown): string | null {
  if (!(error instanceof ApiError) || !isRecord(error.body)) return null;
  const body = error.body;
  if (typeof body.redirect_browser_to === 'string') return body.redirect_browser_to;
  if (isRecord(body.error) && isRecord(body.error.details) && typeof body.error.details.redirect_browser_to === 'string') {
    return body.error.details.redirect_browser_to;
  }
  return null;
}
