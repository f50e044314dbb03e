import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { selfSignedCertificate, startHttpServer, type HttpTarget } from './fixtures/local-targets';
import { runCanaryNow } from './fixtures/run-canary';

const CLIENT_SECRET = 'oauth-client-secret-5f1e';
const DIGEST_PASSWORD = 'digest-pass-77a0';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A server answering Digest challenges (RFC 7616, MD5, qop auth) and OAuth 2 token requests, keeping what it was sent. */
async function startAuthServer(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/token') {
        const expected = `Basic ${Buffer.from(`checker-client:${CLIENT_SECRET}`).toString('base64')}`;
        const ok = req.headers.authorization === expected && new URLSearchParams(body).get('grant_type') === 'client_credentials';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { access_token: 'issued-token-1', token_type: 'bearer' } : { error: 'invalid_client' }));
        return;
      }
      if (req.url?.startsWith('/digest') === true) {
        const header = req.headers.authorization ?? '';
        const field = (name: string): string => new RegExp(`${name}="?([^",]+)"?`).exec(header)?.[1] ?? '';
        const ha1 = md5(`ada:lab:${DIGEST_PASSWORD}`);
        const expected = md5(`${ha1}:n0nce:${field('nc')}:${field('cnonce')}:auth:${md5(`GET:${req.url}`)}`);
        if (header.startsWith('Digest ') && field('response') === expected && field('uri') === req.url) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"authenticated":true,"user":"ada"}');
          return;
        }
        res.writeHead(401, { 'www-authenticate': 'Digest realm="lab", qop="auth", nonce="n0nce", opaque="op", algorithm=MD5' });
        res.end();
        return;
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The http check's digest, awsSigV4, oauth2 and maxRedirects, against servers on this host. */
describe('http check authentication', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let auth: Awaited<ReturnType<typeof startAuthServer>>;
  let echo: HttpTarget;
  let attacker: Awaited<ReturnType<typeof startAuthServer>>;
  const previousRole = process.env.OPSDECK_ROLE;

  async function saveAndRun(name: string, check: Record<string, unknown>): Promise<{ id: string; status: boolean; message: string; error: string | null }> {
    const saved = await server.call('POST', '/api/canary/canaries', editor, { name, spec: { schedule: '@every 5m', http: [{ name, ...check }] } });
    expect(saved.status, saved.text).toBe(201);
    const id = String(saved.json.id);
    return { id, ...(await run(id)) };
  }

  const run = (canaryId: string) => runCanaryNow(server, canaryId);

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    auth = await startAuthServer();
    attacker = await startAuthServer();
    echo = await startHttpServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await auth.close();
    await attacker.close();
    await echo.close();
    await server.close();
  });

  it("answers a Digest challenge as canary-checker's http_digest_pass does, and fails a wrong password with the server's 401", async () => {
    const check = { url: `${auth.url}/digest/path?q=1`, username: { value: 'ada' }, digest: true, test: { expr: 'json.authenticated == true && json.user == "ada"' } };
    const passed = await saveAndRun('digest-pass', { ...check, password: { value: DIGEST_PASSWORD }, responseCodes: [200] });
    expect(passed.status, passed.error ?? '').toBe(true);
    const wrong = await saveAndRun('digest-fail', { url: check.url, username: check.username, digest: true, password: { value: 'wrong' }, responseCodes: [401] });
    expect(wrong.status, wrong.error ?? '').toBe(true);
    // The password itself never crossed the wire, only the hash of the challenge.
    expect(JSON.stringify(auth.seen)).not.toContain(DIGEST_PASSWORD);
  });

  it('signs the request with AWS Signature V4, the secret key never sent', async () => {
    const before = echo.requests.length;
    const result = await saveAndRun('sigv4', {
      url: `${echo.url}/echo`,
      awsSigV4: { accessKey: { value: 'AKIDEXAMPLE' }, secretKey: { value: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }, region: 'us-east-1', service: 'execute-api' },
      // The access key is sealed like every key, so expressions see it scrubbed: the signature scheme is what they judge.
      test: { expr: 'json.headers.authorization.startsWith("AWS4-HMAC-SHA256 Credential=")' },
    });
    expect(result.status, result.error ?? '').toBe(true);
    const sent = echo.requests.slice(before).find((request) => request.url === '/echo');
    expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/execute-api\/aws4_request, SignedHeaders=host;x-amz-date, Signature=[0-9a-f]{64}$/);
    expect(sent?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(JSON.stringify(sent)).not.toContain('wJalrXUtnFEMI');
  });

  it('fetches an OAuth 2 token with the client credentials and sends only the token to the check address', async () => {
    const before = echo.requests.length;
    const result = await saveAndRun('oauth2', {
      url: `${echo.url}/echo`,
      username: { value: 'checker-client' },
      password: { value: CLIENT_SECRET },
      oauth2: { tokenURL: `${auth.url}/token`, scope: ['read'] },
      test: { expr: 'json.headers.authorization == "Bearer issued-token-1"' },
    });
    expect(result.status, result.error ?? '').toBe(true);
    const tokenRequest = auth.seen.find((request) => request.url === '/token');
    expect(new URLSearchParams(tokenRequest?.body).get('scope')).toBe('read');
    expect(JSON.stringify(echo.requests.slice(before))).not.toContain(Buffer.from(`checker-client:${CLIENT_SECRET}`).toString('base64'));
  });

  it('keeps the client secret from a token URL an editor points elsewhere: the sealed secret is dropped, never sent', async () => {
    const saved = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'oauth2-moved',
      spec: { http: [{ name: 'api', url: `${echo.url}/echo`, username: 'checker-client', password: CLIENT_SECRET, oauth2: { tokenURL: `${auth.url}/token` } }] },
    });
    expect(saved.status, saved.text).toBe(201);
    const stored = (saved.json.spec as { http: Array<Record<string, unknown>> }).http[0] ?? {};
    expect(JSON.stringify(stored)).not.toContain(CLIENT_SECRET);
    const moved = await server.call('PATCH', `/api/canary/canaries/${String(saved.json.id)}`, editor, {
      spec: { http: [{ ...stored, oauth2: { tokenURL: `${attacker.url}/token` } }] },
    });
    expect(moved.status, moved.text).toBe(200);
    const after = await run(String(saved.json.id));
    expect(after.status).toBe(false);
    expect(JSON.stringify(attacker.seen)).not.toContain(Buffer.from(`checker-client:${CLIENT_SECRET}`).toString('base64'));
    expect(JSON.stringify(attacker.seen)).not.toContain(CLIENT_SECRET);
  });

  it('presents a client certificate to a server that requires one, from http and prometheus checks, the key stored sealed', async () => {
    const serverCert = selfSignedCertificate(30);
    const client = selfSignedCertificate(30);
    const mtls = https.createServer({ key: serverCert.key, cert: serverCert.cert, requestCert: true, rejectUnauthorized: true, ca: client.cert }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.startsWith('/api/v1/query') === true ? '{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[0,"1"]}]}}' : '{"ok":true}');
    });
    await new Promise<void>((resolve) => mtls.listen(0, '127.0.0.1', resolve));
    const url = `https://localhost:${(mtls.address() as AddressInfo).port}`;
    try {
      const withCertificate = await saveAndRun('mtls-http', { url: `${url}/health`, tlsConfig: { ca: serverCert.cert, cert: client.cert, key: client.key } });
      expect(withCertificate.status, withCertificate.error ?? '').toBe(true);
      const stored = await server.pool.query<{ spec: unknown }>('select spec from canaries where id = $1', [withCertificate.id]);
      expect(JSON.stringify(stored.rows[0]?.spec)).not.toContain(client.key.split('\n')[1] ?? client.key);
      const without = await saveAndRun('mtls-http-none', { url: `${url}/health`, tlsConfig: { ca: serverCert.cert } });
      expect(without.status).toBe(false);
      const saved = await server.call('POST', '/api/canary/canaries', editor, {
        name: 'mtls-prometheus',
        spec: { prometheus: [{ name: 'up', url, query: 'up', tls: { ca: serverCert.cert, cert: client.cert, key: client.key } }] },
      });
      expect(saved.status, saved.text).toBe(201);
      const prometheus = await run(String(saved.json.id));
      expect(prometheus.status, prometheus.error ?? '').toBe(true);
      const half = await server.call('POST', '/api/canary/canaries', editor, { name: 'half', spec: { http: [{ name: 'h', url, tlsConfig: { cert: client.cert } }] } });
      expect(half.status).toBe(400);
      expect(String(half.json.details)).toContain('http[0].tlsConfig.cert: cert and key go together');
    } finally {
      await new Promise<void>((resolve) => mtls.close(() => resolve()));
    }
  });

  it('takes maxRedirects 0, which is what this server always does, and refuses any other number by name', async () => {
    const result = await saveAndRun('no-follow', { url: `${echo.url}/status/301`, maxRedirects: 0, responseCodes: [301] });
    expect(result.status, result.error ?? '').toBe(true);
    const refused = await server.call('POST', '/api/canary/canaries', editor, { name: 'follow', spec: { http: [{ name: 'f', url: `${echo.url}/ok`, maxRedirects: 5 }] } });
    expect(refused.status).toBe(400);
    expect(String(refused.json.details)).toContain('http[0].maxRedirects: only 0 runs here');
  });

  it('refuses two authentication schemes on one check, and digest or oauth2 without credentials', async () => {
    const both = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'both',
      spec: { http: [{ name: 'b', url: `${echo.url}/ok`, username: 'u', password: 'p', digest: true, oauth2: { tokenURL: `${auth.url}/token` } }] },
    });
    expect(both.status).toBe(400);
    expect(String(both.json.details)).toContain('http[0].oauth2: cannot be combined with digest');
    const signedAndBasic = await server.call('POST', '/api/canary/canaries', editor, {
      name: 'signed-and-basic',
      spec: { http: [{ name: 's', url: `${echo.url}/ok`, username: 'u', password: 'p', awsSigV4: { accessKey: 'AKID', secretKey: 'k', region: 'us-east-1', service: 'execute-api' } }] },
    });
    expect(signedAndBasic.status).toBe(400);
    expect(String(signedAndBasic.json.details)).toContain('http[0].awsSigV4: cannot be combined with username, password or authentication');
    const bare = await server.call('POST', '/api/canary/canaries', editor, { name: 'bare', spec: { http: [{ name: 'b', url: `${echo.url}/ok`, digest: true }] } });
    expect(bare.status).toBe(400);
    expect(String(bare.json.details)).toContain('http[0].digest: needs username and password');
  });
});
