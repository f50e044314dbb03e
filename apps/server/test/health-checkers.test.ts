import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCheck, type CheckResult } from '../src/modules/health/checkers/run-check';
import { EXEC_OUTPUT_CAP_BYTES } from '../src/modules/health/checkers/exec-checker';
import { createConnection, resolveConnection } from '../src/modules/connections/connection-store';
import { mongoLibrary, mysqlLibrary } from '../src/platform/client-libraries';
import { startTestServer, type TestServer } from './harness';
import { startPostgresTarget } from './fixtures/postgres-target';
import { allowLocalDatabases } from './fixtures/local-databases';
import { closedPort, selfSignedCertificate, startHttpServer, startHttpsServer, startRedis, startTcpListener, type HttpTarget, type HttpsTarget } from './fixtures/local-targets';

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
    // The postgres and mysql targets below listen on 127.0.0.1.
    await allowLocalDatabases(server);
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

  // Scripts run only as the sandbox user, which a server needs root to switch to (ADR 0042); CI runs as root.
  describe.runIf(process.getuid?.() === 0)('exec', () => {
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

  describe.runIf(process.getuid?.() !== 0)('exec without root', () => {
    it('refuses to run the script, saying the server must run as root', async () => {
      const result = await run('exec', { name: 'ok', script: 'echo "all good"' });
      expect(result).toMatchObject({ pass: false, error: expect.stringMatching(/^Exec checks need the server to run as root/) });
    });
  });

  describe('folder', () => {
    it('applies age, count and size rules to the files of a folder, in canary-checker\'s words', async () => {
      writeFileSync(path.join(folder, 'backup-1.tar'), Buffer.alloc(2048));
      writeFileSync(path.join(folder, 'backup-2.tar'), Buffer.alloc(4096));
      writeFileSync(path.join(folder, 'notes.txt'), 'x');
      const old = new Date(Date.now() - 3 * 3_600_000);
      utimesSync(path.join(folder, 'backup-1.tar'), old, old);
      utimesSync(path.join(folder, 'backup-2.tar'), old, old);

      const fresh = await run('folder', { name: 'f', path: folder, filter: { regex: '\\.tar$' }, maxAge: '1h' });
      expect(fresh).toMatchObject({ pass: false, error: expect.stringMatching(/backup-\d\.tar is too old 3h > 1h$/) });
      expect(fresh.details).toMatchObject({ count: 2 });

      const stale = await run('folder', { name: 'f', path: folder, filter: { regex: '\\.tar$' }, maxAge: '4h', minCount: 2, minSize: '2KB', maxSize: '4Ki' });
      expect(stale).toMatchObject({ pass: true, message: expect.stringMatching(/^2 files, newest backup-\d\.tar \(3h old\)$/) });

      const tooSmall = await run('folder', { name: 'f', path: folder, minSize: '10' });
      expect(tooSmall).toMatchObject({ pass: false, error: expect.stringContaining('notes.txt is too small: 1 < 10') });
      const tooMany = await run('folder', { name: 'f', path: folder, maxCount: 2 });
      expect(tooMany).toMatchObject({ pass: false, error: expect.stringContaining('too many files 3 > 2') });
    });

    it('reads a missing folder as no files, as canary-checker does, so minCount is what fails it', async () => {
      const missing = path.join(folder, 'missing');
      expect(await run('folder', { name: 'f', path: missing })).toMatchObject({ pass: true, message: `0 files: ${missing} does not exist` });
      expect(await run('folder', { name: 'f', path: missing, minCount: 1 })).toMatchObject({ pass: false, error: `0 files: ${missing} does not exist; too few files 0 < 1` });
    });

    it('lists the files a glob matches, ** included, and a system folder through a trailing *', async () => {
      const tree = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-glob-'));
      try {
        mkdirSync(path.join(tree, 'a', 'b'), { recursive: true });
        writeFileSync(path.join(tree, 'top.log'), 'x');
        writeFileSync(path.join(tree, 'top.txt'), 'x');
        writeFileSync(path.join(tree, 'a', 'mid.log'), 'x');
        writeFileSync(path.join(tree, 'a', 'b', 'deep.log'), 'x');
        const flat = await run('folder', { name: 'g', path: path.join(tree, '*.log'), minCount: 1, maxCount: 1 });
        expect(flat).toMatchObject({ pass: true, message: expect.stringMatching(/^1 file, newest top\.log/) });
        const deep = await run('folder', { name: 'g', path: path.join(tree, '**', '*.log'), minCount: 3, maxCount: 3 });
        expect(deep.pass, deep.error ?? '').toBe(true);
        const names = await run('folder', {
          name: 'g',
          path: path.join(tree, '**', '*.log'),
          display: { expr: 'results.files.map(f, f.name).sort().join(",")' },
          test: { expr: 'results.files.size() == 3 && results.newest.name != ""' },
        });
        expect(names).toMatchObject({ pass: true, message: ['a/b/deep.log', 'a/mid.log', 'top.log'].join(',') });
        const recursive = await run('folder', { name: 'g', path: tree, filter: { regex: '\\.log$' }, minCount: 3 });
        expect(recursive).toMatchObject({ pass: false, error: expect.stringContaining('too few files 1 < 3') });
      } finally {
        rmSync(tree, { recursive: true, force: true });
      }
      expect(await run('folder', { name: 'etc', path: '/etc/*', minCount: 1 })).toMatchObject({ pass: true });
    });
  });

  describe('databases', () => {
    it('queries a database through a stored postgres connection and compares the row count', async () => {
      const key = server.running.context.config.secretKey;
      const target = await startPostgresTarget();
      onTestFinished(() => target.close());
      await createConnection(server.pool, key, { name: 'app-db', type: 'postgres', url: target.url }, null);
      const result = await run('postgres', { name: 'db', connection: 'connection://default/app-db', query: 'select n from samples', results: 2 });
      expect(result).toMatchObject({ pass: true, message: expect.stringMatching(/^2 rows in \d+ms$/) });
      const wrong = await run('postgres', { name: 'db', connection: 'app-db', query: 'select 1', results: 2 });
      expect(wrong).toMatchObject({ pass: false, error: expect.stringContaining('expected 2') });
      const missing = await run('postgres', { name: 'db', connection: 'nope' });
      expect(missing).toMatchObject({ pass: false, error: "Connection 'nope' not found" });
    });

    it('fills $(username):$(password)@ in a connection string from the check, as Mission Control writes it, and refuses one elsewhere', async () => {
      const target = await startPostgresTarget();
      onTestFinished(() => target.close());
      const parsed = new URL(target.url);
      const templated = target.url.replace(`//${parsed.username}@`, '//$(username):$(password)@');
      const credentials = { username: { value: decodeURIComponent(parsed.username) }, password: { value: 'p@ss/word' } };
      const result = await run('postgres', { name: 'db', url: templated, ...credentials, query: 'select n from samples', results: 2 });
      expect(result, result.error ?? '').toMatchObject({ pass: true });
      const inline = await run('postgres', { name: 'db', connection: templated, ...credentials, query: 'select n from samples', results: 2 });
      expect(inline, inline.error ?? '').toMatchObject({ pass: true });
      const elsewhere = await run('postgres', { name: 'db', url: `${templated}?application_name=$(password)`, ...credentials });
      expect(elsewhere).toMatchObject({ pass: false, error: expect.stringContaining('only in the user part') });
    });

    it('reports a refused connection for postgres, mysql and mongodb on a closed port', async () => {
      // Client libraries load at their first use; on a loaded machine that first load of mongodb alone can outlast the
      // checks' 2 s timeout, which would then report the timeout instead of the refused connection this test is about.
      await Promise.all([mysqlLibrary(), mongoLibrary()]);
      const port = await closedPort();
      for (const [type, url] of [
        ['postgres', `postgres://u@127.0.0.1:${port}/db`],
        ['mysql', `mysql://u@127.0.0.1:${port}/db`],
        // Go's mysql DSN, as canary-checker's fixtures write it, reaches the same host and port.
        ['mysql', `$(username):$(password)@tcp(127.0.0.1:${port})/db`],
        ['mongodb', `mongodb://127.0.0.1:${port}/?directConnection=true`],
      ] as const) {
        const result = await run(type, { name: type, url, timeout: '2s', username: 'u', password: 'p' });
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

    it('speaks TLS as tlsConfig says: enable with a trusted CA, insecureSkipVerify, and never an untrusted certificate by default', async () => {
      const server = selfSignedCertificate(2);
      const redis = await startRedis(undefined, server);
      try {
        const addr = `127.0.0.1:${redis.port}`;
        expect(await run('redis', { name: 'tls', url: addr, tlsConfig: { ca: server.cert } })).toMatchObject({ pass: true, message: expect.stringMatching(/^PONG/) });
        expect(await run('redis', { name: 'tls', url: addr, tlsConfig: { insecureSkipVerify: true } })).toMatchObject({ pass: true });
        expect(await run('redis', { name: 'tls', url: addr, tlsConfig: { enable: true } })).toMatchObject({ pass: false, error: expect.stringMatching(/self.signed|certificate/i) });
        expect(await run('redis', { name: 'plain', url: addr, timeout: '2s' })).toMatchObject({ pass: false });
      } finally {
        await redis.close();
      }
    });

    it('presents a client certificate with its key for mutual TLS, and fails without one or with half of one', async () => {
      const server = selfSignedCertificate(2);
      const client = selfSignedCertificate(2);
      const redis = await startRedis(undefined, { ...server, clientCas: `${server.cert}${client.cert}` });
      try {
        const addr = `127.0.0.1:${redis.port}`;
        const mtls = await run('redis', { name: 'mtls', url: addr, tlsConfig: { ca: server.cert, cert: client.cert, key: client.key } });
        expect(mtls).toMatchObject({ pass: true, message: expect.stringMatching(/^PONG/) });
        expect(await run('redis', { name: 'mtls', url: addr, timeout: '3s', tlsConfig: { ca: server.cert } })).toMatchObject({ pass: false });
        expect(await run('redis', { name: 'mtls', url: addr, tlsConfig: { ca: server.cert, cert: client.cert } })).toMatchObject({
          pass: false,
          error: 'tlsConfig: cert and key go together: give both or neither',
        });
      } finally {
        await redis.close();
      }
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

    it('counts an item once when any selector of a list matches it', async () => {
      await server.pool.query(
        `insert into config_items (type, config_class, name, health, labels) values
           ('Kubernetes::Node', 'Kubernetes', 'listed-node', 'healthy', '{"team":"listed"}'),
           ('Kubernetes::Pod', 'Kubernetes', 'listed-pod', 'healthy', '{"team":"listed"}')`,
      );
      const either = await run('catalog', {
        name: 'c',
        selector: [{ types: ['Kubernetes::Node'], labels: { team: 'listed' } }, { name: 'listed-*', labels: { team: 'listed' } }],
        minCount: 2,
        maxCount: 2,
      });
      expect(either).toMatchObject({ pass: true, message: '2 matching catalog items' });
    });
  });

  describe('elasticsearch and alertmanager', () => {
    let services: SearchServices;

    beforeAll(async () => {
      services = await startSearchServices();
    });
    afterAll(async () => {
      await services.close();
    });

    it('posts a counting search to the index and passes when the hits equal results', async () => {
      const result = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs', query: '{"query":{"term":{"level":"error"}}}', results: 2 });
      expect(result).toMatchObject({ pass: true, error: null, message: '2 hits', details: { index: 'logs', hits: 2 } });
      const seen = services.requests.at(-1);
      expect(seen).toMatchObject({ method: 'POST', path: '/logs/_search' });
      expect(seen?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(seen?.body ?? '')).toEqual({ query: { term: { level: 'error' } }, size: 0, track_total_hits: true });
    });

    it('wraps a bare query clause and searches everything when the query is left out', async () => {
      const clause = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs', query: '{"term":{"level":"info"}}' });
      expect(clause).toMatchObject({ pass: true, message: '1 hit' });
      expect(JSON.parse(services.requests.at(-1)?.body ?? '')).toMatchObject({ query: { term: { level: 'info' } } });
      const all = await run('elasticsearch', { name: 'es', url: `${services.url}/`, index: 'logs', query: { query: { match_all: {} } }, results: 3 });
      expect(all).toMatchObject({ pass: true, message: '3 hits' });
      const defaulted = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs' });
      expect(defaulted).toMatchObject({ pass: true, message: '3 hits' });
    });

    it("runs canary-checker's opensearch checks as the same search, passing on the expected hits and failing on others", async () => {
      const query = '{"query":{"term":{"level":"error"}}}';
      const passing = await run('opensearch', { name: 'opensearch_pass', description: 'OpenSearch checker', url: services.url, index: 'logs', query, results: 2 });
      expect(passing).toMatchObject({ pass: true, error: null, message: '2 hits', details: { index: 'logs', hits: 2 } });
      expect(services.requests.at(-1)).toMatchObject({ method: 'POST', path: '/logs/_search' });
      const failing = await run('opensearch', { name: 'opensearch_fail', url: services.url, index: 'logs', query, results: 100 });
      expect(failing).toMatchObject({ pass: false, error: '2 hits; expected 100' });
      const missing = await run('opensearch', { name: 'opensearch_missing', url: services.url, index: 'nope' });
      expect(missing).toMatchObject({ pass: false, error: 'HTTP 404: index_not_found_exception: no such index [nope]' });
    });

    it('fails when the number of hits differs from results', async () => {
      const result = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs', query: '{"term":{"level":"error"}}', results: 5 });
      expect(result).toMatchObject({ pass: false, error: '2 hits; expected 5', details: { hits: 2 } });
    });

    it('reports the type and reason of an Elasticsearch error answer', async () => {
      const missing = await run('elasticsearch', { name: 'es', url: services.url, index: 'nope' });
      expect(missing).toMatchObject({ pass: false, error: 'HTTP 404: index_not_found_exception: no such index [nope]' });
      const unknown = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs', query: '{"fuzzy_thing":{}}' });
      expect(unknown).toMatchObject({
        pass: false,
        error: 'HTTP 400: search_phase_execution_exception: all shards failed (caused by parsing_exception: unknown query [fuzzy_thing])',
      });
    });

    it('fails without a request when the query is not valid JSON', async () => {
      const before = services.requests.length;
      const result = await run('elasticsearch', { name: 'es', url: services.url, index: 'logs', query: '{"match_all": ' });
      expect(result).toMatchObject({ pass: false, error: 'The query is not valid JSON' });
      expect(services.requests.length).toBe(before);
    });

    it('searches through a stored elasticsearch connection with its credentials', async () => {
      const key = server.running.context.config.secretKey;
      await createConnection(server.pool, key, { name: 'search-es', type: 'elasticsearch', url: services.url, username: 'elastic', password: 'changeme' }, null);
      const result = await run('elasticsearch', { name: 'es', connection: 'connection://default/search-es', index: 'secure', results: 1 });
      expect(result).toMatchObject({ pass: true, message: '1 hit' });
      expect(services.requests.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('elastic:changeme').toString('base64')}`);
      const override = await run('elasticsearch', {
        name: 'es',
        connection: 'search-es',
        index: 'secure',
        authentication: { username: 'elastic', password: { value: 'wrong' } },
      });
      expect(override).toMatchObject({ pass: false, error: 'HTTP 401: security_exception: missing authentication credentials' });
    });

    it('sends the top-level username and password canary-checker writes as Basic credentials, and refuses them beside authentication', async () => {
      const basic = `Basic ${Buffer.from('elastic:changeme').toString('base64')}`;
      const inline = await run('opensearch', { name: 'os', url: services.url, index: 'secure', results: 1, username: 'elastic', password: { value: 'changeme' } });
      expect(inline).toMatchObject({ pass: true, message: '1 hit' });
      expect(services.requests.at(-1)?.headers.authorization).toBe(basic);
      const both = await run('elasticsearch', {
        name: 'es',
        url: services.url,
        index: 'secure',
        username: 'elastic',
        password: 'wrong',
        authentication: { username: 'elastic', password: 'changeme' },
      });
      expect(both).toMatchObject({ pass: false });
      expect(both.error).toContain('give the credentials once: authentication, or username and password, not both');
    });

    it('passes when no alert fires and asks only for active, unsilenced, uninhibited alerts', async () => {
      services.alerts.length = 0;
      const result = await run('alertmanager', { name: 'am', url: services.url });
      expect(result).toMatchObject({ pass: true, error: null, message: 'No matching alerts firing' });
      const query = new URL(services.requests.at(-1)?.path ?? '', 'http://x').searchParams;
      expect(Object.fromEntries(query)).toEqual({ active: 'true', silenced: 'false', inhibited: 'false' });
    });

    it('fails while alerts fire, naming them with their counts and listing them in the details', async () => {
      services.alerts.splice(0, services.alerts.length, ...FIRING_ALERTS);
      const result = await run('alertmanager', { name: 'am', url: services.url });
      expect(result).toMatchObject({ pass: false, error: '4 alerts firing: KubePodCrashLooping (2), TargetDown (1), Watchdog (1)' });
      const details = result.details as { total: number; alerts: Record<string, unknown>[] };
      expect(details.total).toBe(4);
      expect(details.alerts[0]).toEqual({
        name: 'TargetDown',
        labels: { alertname: 'TargetDown', severity: 'critical', namespace: 'prod' },
        startsAt: '2024-05-01T10:00:00.000Z',
        summary: 'Target is down',
      });
    });

    it('passes when every firing alert is ignored by name or excluded by any one of its labels', async () => {
      services.alerts.splice(0, services.alerts.length, ...FIRING_ALERTS);
      const ignored = await run('alertmanager', { name: 'am', url: services.url, ignore: ['Watchdog', 'Kube.*', 'TargetDown'] });
      expect(ignored).toMatchObject({ pass: true, message: 'No matching alerts firing', details: { examined: 4 } });
      const excluded = await run('alertmanager', {
        name: 'am',
        url: services.url,
        ignore: ['Watchdog', 'TargetDown'],
        exclude_filters: { namespace: 'dev', severity: 'critical' },
      });
      expect(excluded).toMatchObject({ pass: true, message: 'No matching alerts firing' });
      const partly = await run('alertmanager', { name: 'am', url: services.url, ignore: ['Watchdog', 'TargetDown'], exclude_filters: { namespace: 'dev' } });
      expect(partly).toMatchObject({ pass: false, error: '1 alert firing: KubePodCrashLooping (1)' });
      expect((partly.details as { alerts: { labels: Record<string, string> }[] }).alerts[0]?.labels.namespace).toBe('prod');
    });

    it('watches only the alerts named or matched by alerts, and sends filters as matchers', async () => {
      services.alerts.splice(0, services.alerts.length, ...FIRING_ALERTS);
      const named = await run('alertmanager', { name: 'am', url: services.url, alerts: ['TargetDown'] });
      expect(named).toMatchObject({ pass: false, error: '1 alert firing: TargetDown (1)' });
      const pattern = await run('alertmanager', { name: 'am', url: services.url, alerts: ['Kube.*'] });
      expect(pattern).toMatchObject({ pass: false, error: '2 alerts firing: KubePodCrashLooping (2)' });
      const anchored = await run('alertmanager', { name: 'am', url: services.url, alerts: ['Kube'] });
      expect(anchored).toMatchObject({ pass: true, message: 'No matching alerts firing' });
      const filtered = await run('alertmanager', { name: 'am', url: services.url, filters: { severity: 'critical' } });
      expect(filtered).toMatchObject({ pass: false, error: '2 alerts firing: TargetDown (1), KubePodCrashLooping (1)' });
      const query = new URL(services.requests.at(-1)?.path ?? '', 'http://x').searchParams;
      expect(query.getAll('filter')).toEqual(['severity="critical"']);
    });

    it('reads alerts through a stored connection', async () => {
      services.alerts.splice(0, services.alerts.length, ...FIRING_ALERTS);
      const key = server.running.context.config.secretKey;
      await createConnection(server.pool, key, { name: 'alerts-am', type: 'http', url: services.url }, null);
      const result = await run('alertmanager', { name: 'am', connection: 'connection://default/alerts-am', alerts: ['Watchdog'] });
      expect(result).toMatchObject({ pass: false, error: '1 alert firing: Watchdog (1)' });
    });
  });

  it('reports a spec that does not fit its check type instead of throwing', async () => {
    const result = await run('tcp', { name: 'x', thresholdMillis: 'fast' });
    expect(result.pass).toBe(false);
    expect(result.error).toMatch(/^Invalid check spec: thresholdMillis/);
  });
});

interface SearchRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface SearchServices {
  url: string;
  requests: SearchRequest[];
  /** What the fake Alertmanager answers; tests replace its contents. */
  alerts: Record<string, unknown>[];
  close(): Promise<void>;
}

const FIRING_ALERTS: Record<string, unknown>[] = [
  {
    labels: { alertname: 'TargetDown', severity: 'critical', namespace: 'prod' },
    annotations: { summary: 'Target is down' },
    startsAt: '2024-05-01T10:00:00.000Z',
    status: { state: 'active' },
  },
  { labels: { alertname: 'KubePodCrashLooping', severity: 'critical', namespace: 'prod' }, annotations: {}, startsAt: '2024-05-01T10:05:00.000Z' },
  { labels: { alertname: 'KubePodCrashLooping', severity: 'warning', namespace: 'dev' }, annotations: {}, startsAt: '2024-05-01T10:06:00.000Z' },
  { labels: { alertname: 'Watchdog', severity: 'none' }, annotations: {}, startsAt: '2024-05-01T09:00:00.000Z' },
];

const SEARCH_DOCUMENTS: Record<string, { level: string }[]> = {
  logs: [{ level: 'error' }, { level: 'error' }, { level: 'info' }],
  secure: [{ level: 'info' }],
};

function esError(status: number, type: string, reason: string, rootCause = { type, reason }): string {
  return JSON.stringify({ error: { root_cause: [rootCause], type, reason }, status });
}

/** Counts like Elasticsearch for match_all and term/match on `level`; anything else is an unknown query. */
function esSearch(index: string, headers: http.IncomingHttpHeaders, body: string): { status: number; body: string } {
  const documents = SEARCH_DOCUMENTS[index];
  if (documents === undefined) return { status: 404, body: esError(404, 'index_not_found_exception', `no such index [${index}]`) };
  if (index === 'secure' && headers.authorization !== `Basic ${Buffer.from('elastic:changeme').toString('base64')}`) {
    return { status: 401, body: esError(401, 'security_exception', 'missing authentication credentials') };
  }
  const search = JSON.parse(body) as { query?: Record<string, Record<string, string>>; size?: number; track_total_hits?: boolean };
  if (search.size !== 0 || search.track_total_hits !== true || headers['content-type'] !== 'application/json') {
    return { status: 400, body: esError(400, 'illegal_argument_exception', 'expected a counting search') };
  }
  const [kind, clause] = Object.entries(search.query ?? { match_all: {} })[0] ?? [];
  let total: number;
  if (kind === 'match_all') total = documents.length;
  else if ((kind === 'term' || kind === 'match') && clause !== undefined) total = documents.filter((doc) => doc.level === clause.level).length;
  else {
    const cause = { type: 'parsing_exception', reason: `unknown query [${kind ?? ''}]` };
    return { status: 400, body: esError(400, 'search_phase_execution_exception', 'all shards failed', cause) };
  }
  return { status: 200, body: JSON.stringify({ took: 1, timed_out: false, hits: { total: { value: total, relation: 'eq' }, hits: [] } }) };
}

/** Applies `label="value"` matchers the way Alertmanager's /api/v2/alerts does; refuses a state it is not asked for. */
function amAlerts(alerts: Record<string, unknown>[], query: URLSearchParams): { status: number; body: string } {
  if (query.get('active') !== 'true' || query.get('silenced') !== 'false' || query.get('inhibited') !== 'false') {
    return { status: 400, body: JSON.stringify({ message: 'unexpected state filter' }) };
  }
  const matchers = query.getAll('filter').map((filter) => {
    const match = /^(\w+)="(.*)"$/.exec(filter);
    return match === null ? null : { label: match[1] ?? '', value: JSON.parse(`"${match[2] ?? ''}"`) as string };
  });
  if (matchers.includes(null)) return { status: 400, body: JSON.stringify({ message: 'bad matcher' }) };
  const matching = alerts.filter((alert) => {
    const labels = alert.labels as Record<string, string>;
    return matchers.every((matcher) => matcher !== null && labels[matcher.label] === matcher.value);
  });
  return { status: 200, body: JSON.stringify(matching) };
}

/** One local server answering Elasticsearch's POST /{index}/_search and Alertmanager's GET /api/v2/alerts. */
async function startSearchServices(): Promise<SearchServices> {
  const requests: SearchRequest[] = [];
  const alerts: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const url = new URL(path, 'http://x');
      const search = /^\/([^/]+)\/_search$/.exec(url.pathname);
      let answer = { status: 404, body: JSON.stringify({ message: 'not found' }) };
      if (req.method === 'POST' && search !== null) answer = esSearch(decodeURIComponent(search[1] ?? ''), req.headers, body);
      else if (req.method === 'GET' && url.pathname === '/api/v2/alerts') answer = amAlerts(alerts, url.searchParams);
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    alerts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
