import http from 'node:http';
import https from 'node:https';

/** No provider call may hold a delivery worker longer than this, whatever the caller's signal allows. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Providers answer with small JSON documents; anything past this is only ever quoted in an error excerpt. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const EXCERPT_CHARS = 300;

export interface ProviderRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  insecureTls?: boolean;
  signal: AbortSignal;
}

export interface ProviderResponse {
  status: number;
  body: string;
}

/**
 * One request with a hard deadline and a capped body read. Redirects are never followed, so a token or Basic
 * credentials sent here reach only the URL built from the connection, never a Location the peer names.
 */
export function sendRequest(request: ProviderRequest): Promise<ProviderResponse> {
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return Promise.reject(new Error('the URL is not valid'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.reject(new Error(`unsupported URL scheme '${target.protocol}' (http or https expected)`));
  }
  if (request.signal.aborted) return Promise.reject(new Error('the delivery was aborted'));
  const headers: Record<string, string> = { 'user-agent': 'opsdeck', ...(request.headers ?? {}) };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, response?: ProviderResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      if (error !== null) reject(error);
      else if (response !== undefined) resolve(response);
    };
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: request.method ?? 'POST',
      headers,
      agent: false,
      rejectUnauthorized: request.insecureTls !== true,
    });
    const timer = setTimeout(() => req.destroy(new Error(`the request timed out after ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS);
    const onAbort = (): void => {
      req.destroy(new Error('the delivery was aborted'));
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish(error));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => finish(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size >= MAX_RESPONSE_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', (error) => finish(error));
    });
    req.end(request.body);
  });
}

/** The start of a provider's answer, on one line, for an error message. */
export function excerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

/** Throws unless the provider answered 2xx, quoting what it said. */
export function expectSuccess(provider: string, response: ProviderResponse): void {
  if (response.status >= 200 && response.status < 300) return;
  const said = excerpt(response.body);
  throw new Error(`${provider} answered HTTP ${response.status}${said === '' ? '' : `: ${said}`}`);
}

export function basicAuthorization(username: string | null, password: string | null): Record<string, string> {
  if ((username ?? '') === '' && (password ?? '') === '') return {};
  return { authorization: `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`, 'utf8').toString('base64')}` };
}

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The connection's URL with a path appended, keeping any path the URL already has (a proxy prefix, a test server). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function requireValue(value: string | null | undefined, what: string): string {
  if (value === null || value === undefined || value.trim() === '') throw new Error(`${what} is required`);
  return value.trim();
}
