import http from 'node:http';
import type net from 'node:net';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { LogsResponse } from '@opsdeck/shared';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { startFakeKubeApi, type FakeKubeApi } from './fixtures/fake-kube-api';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

interface Peer {
  url: string;
  seen: Seen[];
  answer: (request: Seen) => { status: number; body: unknown };
  close(): Promise<void>;
}

/** A local HTTP server that records each request and answers what the test says. */
async function startPeer(answer: Peer['answer']): Promise<Peer> {
  const peer: Peer = { url: '', seen: [], answer, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') };
      peer.seen.push(seen);
      const { status, body } = peer.answer(seen);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  peer.url = `http://127.0.0.1:${port}`;
  peer.close = () => new Promise((resolve) => server.close(() => resolve()));
  return peer;
}

const MINUTE = 60_000;

function plainTime(time: number): string {
  return new Date(time).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
}

describe('GET /api/logs', () => {
  let server: TestServer;
  let viewer: string;
  let editor: string;
  let folder: string;
  let relative: string;
  const ids: Record<string, string> = {};
  const now = Date.now();
  const root = path.join(inject('testRoot'), 'logs');

  const logs = async (cookie: string, query: Record<string, string>) => {
    const reply = await server.call('GET', `/api/logs?${new URLSearchParams(query).toString()}`, cookie);
    return { ...reply, body: reply.json as unknown as LogsResponse };
  };

  const component = async (name: string, type: string, labels: Record<string, string>): Promise<void> => {
    const result = await server.pool.query<{ id: string }>('insert into components (name, type, labels) values ($1, $2, $3) returning id', [name, type, JSON.stringify(labels)]);
    ids[name] = result.rows[0]?.id ?? '';
  };

  const backend = async (name: string, spec: Record<string, unknown>): Promise<void> => {
    const reply = await server.call('POST', '/api/db/logging_backends', editor, { name, spec });
    expect(reply.status, reply.text).toBe(201);
  };

  beforeAll(async () => {
    server = await startTestServer();
    [viewer, editor] = await Promise.all([server.cookieFor('viewer'), server.cookieFor('editor')]);
    mkdirSync(root, { recursive: true });
    folder = mkdtempSync(path.join(root, 'backends-'));
    relative = path.basename(folder);
    // 3,000 plain lines a minute apart, the newest a minute ago; every tenth says Needle.
    const lines: string[] = [];
    for (let index = 2999; index >= 0; index -= 1) {
      const level = index % 7 === 0 ? 'ERROR' : 'INFO';
      lines.push(`${plainTime(now - (index + 1) * MINUTE)} ${level} request ${index}${index % 10 === 0 ? ' Needle found' : ''}`);
    }
    writeFileSync(path.join(folder, 'billing.log'), `${lines.join('\n')}\n`);
    writeFileSync(
      path.join(folder, 'orders.log'),
      [
        JSON.stringify({ time: new Date(now - 3 * MINUTE).toISOString(), level: 'warn', msg: 'slow order', order: 'ORD-1' }),
        `ts=${new Date(now - 2 * MINUTE).toISOString()} level=error msg="order failed" order=ORD-2`,
        `${new Date(now - MINUTE).toISOString()} [INFO] order shipped`,
      ].join('\n'),
    );
    symlinkSync('/etc/passwd', path.join(folder, 'passwd.log'));
    await component('billing', 'LogFileApp', { app: 'billing' });
    await component('orders', 'LogFileApp', { app: 'orders' });
    await backend('test-files', { routes: [{ kind: 'component', type: 'LogFileApp' }], file: { paths: [`${relative}/{{ labels.app }}.log`], labels: { env: 'test' } } });
  });
  afterAll(async () => {
    await server.close();
  });

  describe('file backend', () => {
    it('answers the last hour by default, newest first, with labels from the spec and the file', async () => {
      const { status, body } = await logs(viewer, { id: ids.billing ?? '' });
      expect(status).toBe(200);
      expect(body.backend).toMatchObject({ name: 'test-files', type: 'file' });
      expect(body.lines.length).toBeGreaterThanOrEqual(59);
      expect(body.lines.length).toBeLessThanOrEqual(60);
      expect(body.truncated).toBe(false);
      expect(body.lines[0]?.message).toBe('request 0 Needle found');
      expect(body.lines[0]?.labels).toEqual({ env: 'test', file: `${relative}/billing.log`, level: 'error' });
      const times = body.lines.map((line) => Date.parse(line.timestamp ?? ''));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('finds a search text case-insensitively within the start given as a time-range key', async () => {
      const { body } = await logs(viewer, { id: ids.billing ?? '', query: 'needle', start: '1d' });
      expect(body.lines.length).toBe(144);
      expect(body.total).toBe(144);
      expect(body.lines.every((line) => line.message.includes('Needle'))).toBe(true);
    });

    it('stops at limit and says the answer is truncated', async () => {
      const { body } = await logs(viewer, { id: ids.billing ?? '', query: 'NEEDLE', start: '1w', limit: '5' });
      expect(body.lines.map((line) => line.message)).toEqual(['request 0 Needle found', 'request 10 Needle found', 'request 20 Needle found', 'request 30 Needle found', 'request 40 Needle found']);
      expect(body.truncated).toBe(true);
      expect(body.total).toBe(6);
    });

    it('takes date math and ISO timestamps as start', async () => {
      const math = await logs(viewer, { id: ids.billing ?? '', start: 'now-30m' });
      expect(math.body.lines.length).toBeGreaterThanOrEqual(29);
      expect(math.body.lines.length).toBeLessThanOrEqual(30);
      const iso = await logs(viewer, { id: ids.billing ?? '', start: new Date(now - 10.5 * MINUTE).toISOString() });
      expect(iso.body.lines.length).toBe(10);
    });

    it('parses json, logfmt and plain lines into time, message, level and fields', async () => {
      const { body } = await logs(viewer, { id: ids.orders ?? '' });
      expect(body.lines.map((line) => [line.message, line.labels.level])).toEqual([
        ['order shipped', 'info'],
        ['order failed', 'error'],
        ['slow order', 'warn'],
      ]);
      expect(body.lines[1]?.labels.order).toBe('ORD-2');
      expect(body.lines[2]?.labels.order).toBe('ORD-1');
    });

    it('reads nothing outside the roots, even from a backend stored past the save rules', async () => {
      await server.pool.query(`insert into logging_backends (name, spec) values ('test-escape', $1)`, [
        JSON.stringify({ routes: [{ type: 'LogEscape' }], file: { paths: ['/etc/passwd', `${relative}/passwd.log`, `${relative}/../../../../../../etc/*`] } }),
      ]);
      await component('escape', 'LogEscape', {});
      const admin = await server.cookieFor('admin');
      const { status, body } = await logs(admin, { id: ids.escape ?? '', start: '5y' });
      expect(status).toBe(200);
      expect(body.lines).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('answers coded 4xx for a missing id, an unknown subject, an unknown selector, a bad start and a limit out of range', async () => {
      const cases: Array<[Record<string, string>, number, string]> = [
        [{}, 400, 'OD_LOGS_ID'],
        [{ id: 'not-a-uuid' }, 400, 'OD_LOGS_ID'],
        [{ id: '00000000-0000-4000-8000-000000000001' }, 404, 'OD_LOGS_NOT_FOUND'],
        [{ id: ids.billing ?? '', name: 'no-such-backend' }, 404, 'OD_LOGS_SELECTOR'],
        [{ id: ids.billing ?? '', start: 'yesterday-ish' }, 400, 'OD_LOGS_START'],
        [{ id: ids.billing ?? '', start: new Date(now + 3_600_000).toISOString() }, 400, 'OD_LOGS_START'],
        [{ id: ids.billing ?? '', limit: '0' }, 400, 'OD_LOGS_LIMIT'],
        [{ id: ids.billing ?? '', limit: '100001' }, 400, 'OD_LOGS_LIMIT'],
        [{ id: ids.billing ?? '', limit: 'ten' }, 400, 'OD_LOGS_LIMIT'],
      ];
      for (const [query, status, code] of cases) {
        const reply = await logs(viewer, query);
        expect(reply.status, JSON.stringify(query)).toBe(status);
        expect(reply.json.code, JSON.stringify(query)).toBe(code);
      }
    });

    it('answers 401 without a session', async () => {
      const reply = await fetch(`${server.url}/api/logs?id=${ids.billing ?? ''}`);
      expect(reply.status).toBe(401);
    });
  });

  describe('loki backend', () => {
    let loki: Peer;
    let other: Peer;
    const streams = (entries: Array<[number, string]>) => ({
      status: 'success',
      data: {
        resultType: 'streams',
        result: [{ stream: { app: 'api', namespace: 'shop' }, values: entries.map(([time, line]) => [String(BigInt(time) * 1_000_000n), line]) }],
        stats: {},
      },
    });

    beforeAll(async () => {
      loki = await startPeer(() => ({ status: 200, body: streams([[now - MINUTE, 'level=info msg="GET /" status=200'], [now - 2 * MINUTE, 'level=error msg="GET /x" status=500']]) }));
      other = await startPeer(() => ({ status: 200, body: streams([]) }));
      await createConnection(server.pool, TEST_SECRET_KEY, { name: 'test-loki', type: 'http', url: loki.url, username: 'loki-user', password: 'loki-password-42' }, null);
      await component('api', 'LogLokiApp', { app: 'api', namespace: 'shop' });
      await backend('test-loki', { routes: [{ type: 'LogLokiApp', labels: { namespace: 'shop' } }], loki: { url: loki.url, connection: 'connection://default/test-loki', query: '{app="{{ labels.app }}"}' } });
      // Written past the save rules (which refuse it), as a row from an older version or another writer could be.
      await server.pool.query(`insert into logging_backends (name, spec) values ('test-loki-elsewhere', $1)`, [
        JSON.stringify({ routes: [{ type: 'LogLokiApp' }], loki: { url: other.url, connection: 'connection://default/test-loki' } }),
      ]);
    });
    beforeEach(() => {
      loki.seen.length = 0;
      other.seen.length = 0;
    });
    afterAll(async () => {
      await loki.close();
      await other.close();
    });

    it('calls query_range with the rendered selector, a case-insensitive line filter, nanosecond times and direction backward', async () => {
      const { status, body } = await logs(viewer, { id: ids.api ?? '', name: 'test-loki', query: 'GET "/', start: '15m', limit: '50' });
      expect(status).toBe(200);
      const [request] = loki.seen;
      const url = new URL(request?.url ?? '', loki.url);
      expect(url.pathname).toBe('/loki/api/v1/query_range');
      expect(url.searchParams.get('query')).toBe('{app="api"} |~ "(?i)GET \\"/"');
      expect(url.searchParams.get('direction')).toBe('backward');
      expect(url.searchParams.get('limit')).toBe('50');
      const start = BigInt(url.searchParams.get('start') ?? '0');
      const end = BigInt(url.searchParams.get('end') ?? '0');
      expect(Number((end - start) / 1_000_000n)).toBe(15 * MINUTE);
      expect(request?.authorization).toBe(`Basic ${Buffer.from('loki-user:loki-password-42').toString('base64')}`);
      expect(body.lines.map((line) => line.message)).toEqual(['level=info msg="GET /" status=200', 'level=error msg="GET /x" status=500']);
      expect(body.lines[1]?.labels).toEqual({ app: 'api', namespace: 'shop', level: 'error' });
      expect(body).toMatchObject({ total: 2, truncated: false, backend: { name: 'test-loki', type: 'loki' } });
    });

    it('never sends the connection password to a url on another origin', async () => {
      const { status } = await logs(viewer, { id: ids.api ?? '', name: 'test-loki-elsewhere' });
      expect(status).toBe(200);
      expect(other.seen).toHaveLength(1);
      expect(other.seen[0]?.authorization).toBeUndefined();
      // Without a query template the selector comes from the route's labels; this route has none, so the subject's.
      expect(loki.seen).toHaveLength(0);
    });

    it('answers a 502 with the backend error and no secret when Loki refuses the query', async () => {
      loki.answer = () => ({ status: 400, body: 'parse error at line 1, col 5: syntax error: unexpected IDENTIFIER' });
      const reply = await logs(viewer, { id: ids.api ?? '', name: 'test-loki' });
      expect(reply.status).toBe(502);
      expect(reply.json.code).toBe('OD_LOG_BACKEND_UNREACHABLE');
      expect(String(reply.json.message)).toContain('HTTP 400: parse error');
      expect(reply.text).not.toContain('loki-password-42');
    });
  });

  describe('opensearch backend', () => {
    let search: Peer;

    beforeAll(async () => {
      search = await startPeer(() => ({
        status: 200,
        body: {
          took: 3,
          timed_out: false,
          hits: {
            total: { value: 42, relation: 'eq' },
            max_score: null,
            hits: [
              { _index: 'logs-2026', _id: 'a1', _score: null, _source: { '@timestamp': new Date(now - MINUTE).toISOString(), message: 'payment captured', level: 'info', kubernetes: { pod: 'p-1' } }, sort: [1] },
              { _index: 'logs-2026', _id: 'a2', _score: null, _source: { '@timestamp': new Date(now - 2 * MINUTE).toISOString(), message: 'payment declined', level: 'warn' }, sort: [2] },
            ],
          },
        },
      }));
      await component('payments', 'LogSearchApp', { app: 'payments' });
      await backend('test-opensearch', { routes: [{ type: 'LogSearchApp' }], opensearch: { url: search.url, index: 'logs-*', query: 'app:"{{ labels.app }}"' } });
    });
    afterAll(async () => {
      await search.close();
    });

    it('posts a bool query with the time range, the rendered query and the search text, sorted newest first', async () => {
      const { status, body } = await logs(viewer, { id: ids.payments ?? '', query: 'payment', start: '1h', limit: '2' });
      expect(status).toBe(200);
      const [request] = search.seen;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/logs-*/_search');
      const sent = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
      expect(sent).toMatchObject({ size: 2, track_total_hits: true, sort: [{ '@timestamp': { order: 'desc' } }] });
      const bool = (sent.query as { bool: { filter: Array<Record<string, unknown>>; must: Array<Record<string, unknown>> } }).bool;
      expect(bool.filter[0]).toHaveProperty(['range', '@timestamp', 'gte']);
      expect(bool.filter[1]).toEqual({ query_string: { query: 'app:"payments"' } });
      expect(bool.must).toEqual([{ query_string: { query: '"payment"', default_field: 'message' } }]);
      expect(body.lines.map((line) => [line.id, line.message, line.labels.level])).toEqual([
        ['a1', 'payment captured', 'info'],
        ['a2', 'payment declined', 'warn'],
      ]);
      expect(body).toMatchObject({ total: 42, truncated: true, backend: { type: 'opensearch' } });
    });
  });

  describe('an unreachable backend', () => {
    it('is a 502 OD_LOG_BACKEND_UNREACHABLE with a message naming the address', async () => {
      await component('gone', 'LogGoneApp', { app: 'gone' });
      await backend('test-gone', { routes: [{ type: 'LogGoneApp' }], elasticsearch: { url: 'http://127.0.0.1:1', index: 'logs' } });
      const reply = await logs(viewer, { id: ids.gone ?? '' });
      expect(reply.status).toBe(502);
      expect(reply.json.code).toBe('OD_LOG_BACKEND_UNREACHABLE');
      expect(String(reply.json.message)).toContain('http://127.0.0.1:1');
    });
  });

  describe('kubernetes backend', () => {
    let api: FakeKubeApi;

    beforeAll(async () => {
      api = await startFakeKubeApi();
      const stamp = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE).toISOString().replace('Z', '123456Z');
      api.podLogs.set('shop/web-7d4b9c-a1', `${stamp(5)} starting web\n${stamp(3)} ERROR upstream timeout\n${stamp(90)} too old\n`);
      api.podLogs.set('shop/web-7d4b9c-b2', `${stamp(4)} starting web\n${stamp(1)} GET / 200\n`);
      await createConnection(server.pool, TEST_SECRET_KEY, { name: 'test-kube', type: 'kubernetes', url: api.url, password: api.token, insecure_tls: true }, null);
      await component('web', 'LogKubeApp', { app: 'web' });
      await backend('test-kube', {
        routes: [{ kind: 'component', type: 'LogKubeApp' }, { kind: 'config', type: 'Kubernetes::Pod', labels: { namespace: 'shop' } }],
        kubernetes: { connection: 'connection://default/test-kube', namespace: 'shop', labelSelector: 'app={{ labels.app }}' },
      });
    });
    afterAll(async () => {
      await api.close();
    });

    it('lists the pods of the rendered label selector and reads their logs with timestamps since start', async () => {
      const { status, body } = await logs(viewer, { id: ids.web ?? '', start: '1h' });
      expect(status, JSON.stringify(body)).toBe(200);
      const list = api.requests.find((request) => request.startsWith('/api/v1/namespaces/shop/pods?'));
      expect(new URLSearchParams(list?.split('?')[1]).get('labelSelector')).toBe('app=web');
      // The fake lists every pod of the namespace whatever the selector; db-0 has no log there, as a pod deleted meanwhile.
      const reads = api.requests.filter((request) => request.includes('/log?'));
      expect(reads.map((request) => request.split('?')[0])).toEqual(expect.arrayContaining(['/api/v1/namespaces/shop/pods/web-7d4b9c-a1/log', '/api/v1/namespaces/shop/pods/web-7d4b9c-b2/log']));
      const params = new URLSearchParams(reads[0]?.split('?')[1]);
      expect(params.get('timestamps')).toBe('true');
      expect(Number(params.get('sinceSeconds'))).toBeGreaterThanOrEqual(3600);
      expect(body.lines.map((line) => [line.labels.pod, line.message])).toEqual([
        ['web-7d4b9c-b2', 'GET / 200'],
        ['web-7d4b9c-a1', 'ERROR upstream timeout'],
        ['web-7d4b9c-b2', 'starting web'],
        ['web-7d4b9c-a1', 'starting web'],
      ]);
      expect(body.lines[1]?.labels.level).toBe('error');
    });

    it('filters pod lines by the search text', async () => {
      const { body } = await logs(viewer, { id: ids.web ?? '', query: 'timeout' });
      expect(body.lines.map((line) => line.message)).toEqual(['ERROR upstream timeout']);
      expect(body.total).toBe(1);
    });

    it('is a 502 when the API refuses the token', async () => {
      const original = api.token;
      api.token = 'rotated';
      const reply = await logs(viewer, { id: ids.web ?? '' });
      api.token = original;
      expect(reply.status).toBe(502);
      expect(reply.json.code).toBe('OD_LOG_BACKEND_UNREACHABLE');
      expect(reply.text).not.toContain(original);
    });
    it('reads the pod itself for a Kubernetes::Pod item', async () => {
      const item = await server.pool.query<{ id: string }>(
        `insert into config_items (type, config_class, name, tags) values ('Kubernetes::Pod', 'Kubernetes', 'web-7d4b9c-a1', '{"namespace": "shop"}') returning id`,
      );
      await server.pool.query(`update logging_backends set spec = spec #- '{kubernetes,labelSelector}' where name = 'test-kube'`);
      api.requests.length = 0;
      const { status, body } = await logs(viewer, { id: item.rows[0]?.id ?? '', name: 'test-kube' });
      expect(status).toBe(200);
      expect(api.requests.filter((request) => request.includes('/pods?'))).toEqual([]);
      expect(body.lines.map((line) => line.message)).toEqual(['ERROR upstream timeout', 'starting web']);
    });

  });
});
