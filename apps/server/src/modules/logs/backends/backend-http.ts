import http from 'node:http';
import https from 'node:https';
import type pg from 'pg';
import { leavesConnectionOrigin, resolveConnection, type ResolvedConnection } from '../../connections';
import { LogBackendError } from './types';

/** A search or query_range answer larger than this is refused: 100,000 lines of a few hundred bytes fit well inside. */
export const MAX_BACKEND_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface BackendRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  /** The backend's stored connection; its credentials go only to its own origin. */
  connection: ResolvedConnection | null;
  signal: AbortSignal;
  maxBytes?: number;
}

export interface BackendResponse {
  status: number;
  body: string;
}

/** scheme://host:port/path of a URL, never its userinfo or query, for messages people and logs see. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

/** Resolves a backend's connection reference; a vanished connection is the backend's problem (502), not the caller's. */
export async function backendConnection(pool: pg.Pool, key: Buffer, reference: string | undefined): Promise<ResolvedConnection | null> {
  if (reference === undefined) return null;
  try {
    return await resolveConnection(pool, key, reference);
  } catch (error) {
    throw new LogBackendError(error instanceof Error ? error.message : 'its connection cannot be read');
  }
}

/**
 * The Authorization header of a connection for a URL: Basic with a username, Bearer with a token alone, and nothing
 * when the URL leaves the connection's own scheme, host and port (ADR 0043), whoever stored the backend.
 */
export function authorizationFor(connection: ResolvedConnection | null, url: string): string | null {
  if (connection === null || leavesConnectionOrigin(connection.url, url)) return null;
  const password = connection.password ?? '';
  if (connection.username !== null && connection.username !== '') {
    return `Basic ${Buffer.from(`${connection.username}:${password}`).toString('base64')}`;
  }
  return password === '' ? null : `Bearer ${password}`;
}

/**
 * One request to a log backend: no redirects followed (a 3xx never carries the credentials elsewhere), aborted with
 * the query's deadline, and the body read up to a cap. Failures are LogBackendErrors whose message names the URL
 * without credentials.
 */
export function backendRequest(request: BackendRequest): Promise<BackendResponse> {
  const maxBytes = request.maxBytes ?? MAX_BACKEND_RESPONSE_BYTES;
  const where = displayUrl(request.url);
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return Promise.reject(new LogBackendError('its URL is not valid'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new LogBackendError(`${where} is not http or https`));
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'opsdeck-logs' };
  const authorization = authorizationFor(request.connection, request.url);
  if (authorization !== null) headers.authorization = authorization;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(request.body));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, response?: BackendResponse): void => {
      if (settled) return;
      settled = true;
      request.signal.removeEventListener('abort', onAbort);
      if (error !== null) reject(error);
      else if (response !== undefined) resolve(response);
    };
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: request.method,
      headers,
      agent: false,
      rejectUnauthorized: request.connection?.insecureTls !== true,
    });
    const onAbort = (): void => {
      req.destroy(new LogBackendError(`${where} did not answer in time`));
    };
    if (request.signal.aborted) onAbort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      // Node's own messages name the address and the cause (ECONNREFUSED, certificate problems), never a header.
      finish(error instanceof LogBackendError ? error : new LogBackendError(`${where}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          finish(new LogBackendError(`${where} answered more than ${Math.round(maxBytes / 1024 / 1024)} MB: ask for fewer lines`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => finish(new LogBackendError(`${where}: ${error.message}`)));
    });
    req.end(request.body);
  });
}

/** The first words of an error answer, for the 502's message: enough to tell what went wrong, not a page of HTML. */
export function errorSummary(status: number, body: string): string {
  let detail = body.trim();
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      const error = record.error;
      const candidates = [record.message, typeof error === 'object' && error !== null ? (error as Record<string, unknown>).reason : error];
      const found = candidates.find((value): value is string => typeof value === 'string');
      if (found !== undefined) detail = found;
    }
  } catch {
    // Not JSON: the text itself, cut below.
  }
  detail = detail.replace(/\s+/g, ' ').slice(0, 200);
  return `HTTP ${status}${detail === '' ? '' : `: ${detail}`}`;
}
