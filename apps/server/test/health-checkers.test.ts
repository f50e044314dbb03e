import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type CheckResult } from '../src/modules/health/checkers/run-check';
import { EXEC_OUTPUT_CAP_BYTES } from '../src/modules/health/checkers/exec-checker';
import { createConnection, resolveConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { closedPort, startHttpServer, startHttpsServer, startRedis, startTcpListener, type HttpTarget, type HttpsTarget } from './fixtures/local-targets';

describe('checkers against local targets', () => {
  let server: TestServer;
  let https: HttpsTarget;
  let plain: HttpTarget;
  let folder: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const run = (type: string, spec: Record<string, unknown>): Promise<CheckResult> =>
    runCheck(type, spec, {
      pool: server.pool,
      resolveConnection: (reference) => resolveConnection(server.pool, server.running.context.config.secretKey, reference),
    });

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    https = await startHttpsServer(30);
    plain = await startHttpServer();
    folder = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-folder-'));
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await https.close();
    await plain.close();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  describe('http', () => {
    it('passes on a 200 over TLS with the expected content and reports the days left on the certificate', async () => {
      const result = await run('http', { name: 'tls', url: `${https.url}/ok`, responseContent: 'hello', tlsConfig: { ca: https.ca } });
      expect(result).toMatchObject({ pass: true, error: null, message: expect.stringMatching(/^HTTP 200 in \d+ms$/) });
      expect(result.details?.sslExpiryDays).toBeGreaterThanOrEqual(29);
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('fails when the certificate expires sooner than maxSSLExpiry days', async () => {
      const result = await run('http', { name: 'tls', url: `${https.url}/ok`, maxSSLExpiry: 60, tlsConfig: { ca: https.ca } });
      expect(result.pass).toBe(false);
      expect(result.error).toMatch(/SSL certificate expires in (29|30) days \(minimum 60\)/);
    });

    it('refuses an untrusted certificate unless insecureSkipVerify is set', async () => {
      const refused = await run('http', { name: 'tls', url: `${https.url}/ok` });
      expect(refused.pass).toBe(false);
      expect(refused.error).toMatch(/self[- ]signed/i);
      const skipped = await run('http', { name: 'tls', url: `${https.url}/ok`, tlsConfig: { insecureSkipVerify: true } });
      expect(skipped.pass).toBe(true);
    });

    it('checks the status against responseCodes', async () => {
      const unexpected = await run('http', { name: 'x', url: `${plain.url}/status/503` });
      expect(unexpected).toMatchObject({ pass: false, error: expect.stringContaining('HTTP 503') });
      const expected = await run('http', { name: 'x', url: `${plain.url}/status/503`, responseCodes: [503] });
      expect(expected.pass).toBe(true);
    });

    it('sends the method, headers, body and basic authentication of the spec', async () => {
      const result = await run('http', {
        name: 'post',
        url: `${plain.url}/echo`,
        method: 'POST',
        headers: [{ name: 'x-team', value: 'sre' }],
        body: '{"ping":true}',
        authentication: { username: { value: 'ada' }, password: 'pw' },
        responseContent: 'ping',
      });
      expect(result.pass).toBe(true);
      const seen = plain.requests.at(-1);
      expect(seen).toMatchObject({ method: 'POST', body: '{"ping":true}' });
      expect(seen?.headers['x-team']).toBe('sre');
      expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('ada:pw').toString('base64')}`);
    });

    it('fails a response slower than its timeout', async () => {
      const result = await run('http', { name: 'slow', url: `${plain.url}/slow`, timeout: '300ms' });
      expect(result.pass).toBe(false);
      expect(result.error).toMatch(/timed out after 300ms/);
      expect(result.durationMs).toBeLessThan(2000);
    });

    it('fails a response slower than thresholdMillis', async () => {
      const result = await run('http', { name: 'x', url: `${plain.url}/ok`, thresholdMillis: 0.001 });
      expect(result.pass).toBe(false);
      expect(result.error).toMatch(/above the threshold of 0.001ms/);
    });

    it('reads at most 1 MiB of a response', async () => {
      const result = await run('http', { name: 'big', url: `${plain.url}/big` });
      expect(result.pass).toBe(true);
      expect(result.details).toMatchObject({ bytes: 1024 * 1024, truncated: true });
    });
  });

  describe('tcp', () => {
    it('passes when the port accepts a connection and fails when it is closed', async () => {
      const listener = await startTcpListener();
      try {
        const open = await run('tcp', { name: 'port', endpoint: listener.url });
        expect(open).toMatchObject({ pass: true, message: expect.stringContaining(`Connected to 127.0.0.1:${listener.port}`) });
      } finally {
        await listener.close();
      }
      const closed = await run('tcp', { name: 'port', endpoint: `127.0.0.1:${await closedPort()}` });
      expect(closed).toMatchObject({ pass: false, error: expect.stringContaining('ECONNREFUSED') });
    });

    it('rejects an endpoint without a port', async () => {
      const result = await run('tcp', { name: 'port', endpoint: 'localhost' });
      expect(result).toMatchObject({ pass: false, error: "Invalid endpoint 'localhost': expected host:port" });
    });
  });

  describe('dns', () => {
    it('resolves localhost to 127.0.0.1 and compares exactreply', async () => {
      const result = await run('dns', { name: 'localhost', query: 'localhost', querytype: 'A', exactreply: ['127.0.0.1'] });
      expect(result).toMatchObject({ pass: true, message: 'A localhost: 127.0.0.1' });
      const wrong = await run('dns', { name: 'localhost', query: 'localhost', exactreply: ['10.0.0.1'] });
      expect(wrong).toMatchObject({ pass: false, error: expect.stringContaining('expected exactly 10.0.0.1') });
    });

    it('fails for a name that does not resolve', async () => {
      const result = await run('dns', { name: 'missing', query: 'no-such-host.invalid' });
      expect(result.pass).toBe(false);
      expect(result.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
    });
  });

  describe('icmp', () => {
    it('pings the loopback address with no packet loss', async () => {
      const result = await run('icmp', { name: 'loopback', endpoint: '127.0.0.1', packetCount: 2 });
      expect(result).toMatchObject({ pass: true, message: expect.stringMatching(/^127\.0\.0\.1: 0% packet loss, average [\d.]+ms$/) });
      expect(result.details).toMatchObject({ packetLoss: 0 });
    });
  });

  describe('exec', () => {
    it('passes on exit code 0 with the output as message', async () => {
      const result = await run('exec', { name: 'ok', script: 'echo "all good"; echo "$GREETING"', env: { GREETING: 'hi' } });
      expect(result).toMatchObject({ pass: true, message: 'all good\nhi', error: null });
    });

    it('fails on another exit code with the error output', async () => {
      const result = await run('exec', { name: 'bad', script: 'echo "disk full" >&2; exit 3' });
      expect(result).toMatchObject({ pass: false, error: 'exit code 3: disk full' });
    });

    it('kills a script that runs past its timeout, children included', async () => {
      const started = Date.now();
      const result = await run('exec', { name: 'slow', script: 'sleep 30 & sleep 30; echo never', timeout: '500ms' });
      expect(result).toMatchObject({ pass: false, error: 'The script did not finish within 500ms and was killed' });
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('keeps at most 64 KiB of output', async () => {
      const result = await run('exec', { name: 'loud', script: 'head -c 300000 /dev/zero | tr "\\0" "x"' });
      expect(result.pass).toBe(true);
      expect(result.details).toMatchObject({ truncated: true });
      expect(String(result.details?.stdout).length).toBe(EXEC_OUTPUT_CAP_BYTES);
    });
  });

  describe('folder', () => {
    it('applies age, count and size rules to the files of a folder', async () => {
      writeFileSync(path.join(folder, 'backup-1.tar'), Buffer.alloc(2048));
      writeFileSync(path.join(folder, 'backup-2.tar'), Buffer.alloc(4096));
      writeFileSync(path.join(folder, 'notes.txt'), 'x');
      const old = new Date(Date.now() - 3 * 3_600_000);
      utimesSync(path.join(folder, 'backup-1.tar'), old, old);
      utimesSync(path.join(folder, 'backup-2.tar'), old, old);

      const fresh = await run('folder', { name: 'f', path: folder, filter: { regex: '\\.tar$' }, maxAge: '1h' });
      expect(fresh).toMatchObject({ pass: false, error: expect.stringContaining('the newest file must be younger than 1h') });
      expect(fresh.details).toMatchObject({ count: 2 });

      const stale = await run('folder', { name: 'f', path: folder, filter: { regex: '\\.tar$' }, maxAge: '4h', minCount: 2, minSize: '2KB', maxSize: '4Ki' });
      expect(stale).toMatchObject({ pass: true, message: expect.stringMatching(/^2 files, newest backup-\d\.tar \(3h old\)$/) });

      const tooSmall = await run('folder', { name: 'f', path: folder, minSize: '10' });
      expect(tooSmall).toMatchObject({ pass: false, error: expect.stringContaining('every file must be at least 10') });
    });

    it('fails for a folder that does not exist', async () => {
      const result = await run('folder', { name: 'f', path: path.join(folder, 'missing') });
      expect(result).toMatchObject({ pass: false, error: `${path.join(folder, 'missing')} does not exist` });
    });
  });

  describe('databases', () => {
    it('queries the server database through a stored postgres connection and compares the row count', async () => {
      const key = server.running.context.config.secretKey;
      const target = server.running.context.db.mode === 'embedded' ? { properties: { embedded: 'true' }, url: null } : { url: server.pool.options.connectionString ?? null };
      await createConnection(server.pool, key, { name: 'app-db', type: 'postgres', ...target }, null);
      const result = await run('postgres', { name: 'db', connection: 'connection://default/app-db', query: 'select 1 union all select 2', results: 2 });
      expect(result).toMatchObject({ pass: true, message: expect.stringMatching(/^2 rows in \d+ms$/) });
      const wrong = await run('postgres', { name: 'db', connection: 'app-db', query: 'select 1', results: 2 });
      expect(wrong).toMatchObject({ pass: false, error: expect.stringContaining('expected 2') });
      const missing = await run('postgres', { name: 'db', connection: 'nope' });
      expect(missing).toMatchObject({ pass: false, error: "Connection 'nope' not found" });
    });

    it('reports a refused connection for postgres, mysql and mongodb on a closed port', async () => {
      const port = await closedPort();
      for (const [type, url] of [
        ['postgres', `postgres://u@127.0.0.1:${port}/db`],
        ['mysql', `mysql://u@127.0.0.1:${port}/db`],
        ['mongodb', `mongodb://127.0.0.1:${port}/?directConnection=true`],
      ] as const) {
        const result = await run(type, { name: type, url, timeout: '2s' });
        expect(result.pass, type).toBe(false);
        expect(result.error, type).toMatch(/ECONNREFUSED|connect/i);
      }
    });

    it('pings a real redis-server and fails on a closed port', async () => {
      const redis = await startRedis();
      try {
        const result = await run('redis', { name: 'cache', addr: `127.0.0.1:${redis.port}`, db: 0 });
        expect(result).toMatchObject({ pass: true, message: expect.stringMatching(/^PONG in \d+ms$/) });
      } finally {
        await redis.close();
      }
      const closed = await run('redis', { name: 'cache', addr: `127.0.0.1:${await closedPort()}` });
      expect(closed).toMatchObject({ pass: false, error: expect.stringContaining('ECONNREFUSED') });
    });
  });

  describe('prometheus', () => {
    it('passes when every sample lies inside the threshold and fails otherwise', async () => {
      const inside = await run('prometheus', { name: 'p', url: plain.url, query: 'vector(5)', threshold: { max: 10 } });
      expect(inside).toMatchObject({ pass: true, message: '1 series: 5' });
      const outside = await run('prometheus', { name: 'p', url: plain.url, query: 'vector(50)', threshold: { max: 10 } });
      expect(outside).toMatchObject({ pass: false, error: '1 series: 50; 1 outside <= 10' });
      const broken = await run('prometheus', { name: 'p', url: plain.url, query: 'up{' });
      expect(broken).toMatchObject({ pass: false, error: "HTTP 400: parse error in 'up{'" });
    });
  });

  describe('catalog', () => {
    it('counts catalog items matching the selector', async () => {
      await server.pool.query(
        `insert into config_items (type, config_class, name, health, labels) values
           ('Kubernetes::Pod', 'Kubernetes', 'checker-pod-a', 'healthy', '{"team":"checkers"}'),
           ('Kubernetes::Pod', 'Kubernetes', 'checker-pod-b', 'unhealthy', '{"team":"checkers"}')`,
      );
      const all = await run('catalog', { name: 'c', selector: { types: ['Kubernetes::Pod'], labels: { team: 'checkers' } }, minCount: 2 });
      expect(all).toMatchObject({ pass: true, message: '2 matching catalog items' });
      const unhealthy = await run('catalog', { name: 'c', selector: { name: 'checker-pod-*', healths: ['unhealthy'] }, maxCount: 0, minCount: 0 });
      expect(unhealthy).toMatchObject({ pass: false, error: '1 matching catalog item; expected at most 0' });
    });
  });

  it('reports a spec that does not fit its check type instead of throwing', async () => {
    const result = await run('tcp', { name: 'x', thresholdMillis: 'fast' });
    expect(result.pass).toBe(false);
    expect(result.error).toMatch(/^Invalid check spec: thresholdMillis/);
  });
});
