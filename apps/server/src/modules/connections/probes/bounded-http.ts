import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';

/** Outbound requests from tests and checks never wait longer or read more than this. */
export const MAX_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface HttpProbeRequest {
  url: string;
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  username?: string | null | undefined;
  password?: string | null | undefined;
  timeoutMs?: number | undefined;
  maxBytes?: number | undefined;
  insecureTls?: boolean | undefined;
  ca?: string | undefined;
  /** A PEM client certificate and its private key, for servers that ask for one (mutual TLS). */
  cert?: string | undefined;
  key?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface HttpProbeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** True when the body was cut at maxBytes. */
  truncated: boolean;
  durationMs: number;
  /** The server certificate's expiry, for https. */
  certificateExpiresAt: Date | null;
}

/**
 * One HTTP(S) request with a hard deadline for the whole exchange and a cap on the body read. A fresh socket per
 * request (no agent) so the TLS certificate is always observed. Redirects are never followed: a 3xx is the answer,
 * so credentials given here reach only `url`'s origin, never a Location the server names.
 */
export function httpProbe(request: HttpProbeRequest): Promise<HttpProbeResponse> {
  const timeoutMs = Math.min(request.timeoutMs ?? MAX_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const maxBytes = Math.min(request.maxBytes ?? MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES);
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return Promise.reject(new Error(`Invalid URL '${request.url}'`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.reject(new Error(`Unsupported URL scheme '${target.protocol}' (http or https expected)`));
  }
  const headers: Record<string, string> = { 'user-agent': 'opsdeck-canary', ...(request.headers ?? {}) };
  if (request.username !== undefined && request.username !== null && request.username !== '') {
    headers.authorization = `Basic ${Buffer.from(`${request.username}:${request.password ?? ''}`).toString('base64')}`;
  }
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, response?: HttpProbeResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (error !== null) reject(error);
      else if (response !== undefined) resolve(response);
    };
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: (request.method ?? 'GET').toUpperCase(),
      headers,
      agent: false,
      rejectUnauthorized: request.insecureTls !== true,
      ...(request.ca === undefined ? {} : { ca: request.ca }),
      ...(request.cert === undefined || request.key === undefined ? {} : { cert: request.cert, key: request.key }),
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`Request timed out after ${timeoutMs}ms`));
    }, timeoutMs);
    const onAbort = (): void => {
      req.destroy(new Error('Request aborted'));
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish(error));
    req.on('response', (res) => {
      const socket = res.socket as TLSSocket;
      let certificateExpiresAt: Date | null = null;
      if (typeof socket.getPeerCertificate === 'function') {
        const certificate = socket.getPeerCertificate();
        if (certificate.valid_to !== undefined) certificateExpiresAt = new Date(certificate.valid_to);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = (): void => {
        finish(null, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          truncated,
          durationMs: Math.round(performance.now() - started),
          certificateExpiresAt,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          done();
          res.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', (error) => finish(error));
    });
    req.end(request.body);
  });
}
