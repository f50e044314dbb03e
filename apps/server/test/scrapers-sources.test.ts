import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { sealScraperSpec } from '../src/modules/scrapers/scraper-secrets';
import { runFileSource } from '../src/modules/scrapers/sources/file';
import { runHttpSource } from '../src/modules/scrapers/sources/http';
import { runSqlSource } from '../src/modules/scrapers/sources/sql';
import type { SourceContext } from '../src/modules/scrapers/types';
import { startTestServer, type TestServer } from './harness';
import { startPostgresTarget, type PostgresTarget } from './fixtures/postgres-target';
import { allowLocalDatabases } from './fixtures/local-databases';
import { json, startLocalHttp, type LocalHttp } from './fixtures/scrape-peers';

describe('file, http and sql scraper sources against local peers', () => {
  let server: TestServer;
  let root: string;
  let outside: string;
  let context: SourceContext;
  const previousRole = process.env.OPSDECK_ROLE;

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    // The sql peer below listens on 127.0.0.1.
    await allowLocalDatabases(server);
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-root-')));
    outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-outside-')));
    context = {
      scraperId: '00000000-0000-0000-0000-000000000001',
      pool: server.pool,
      secretKey: server.running.context.config.secretKey,
      roots: [root],
      ownDatabaseUrl: server.pool.options.connectionString ?? null,
      signal: new AbortController().signal,
    };
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const folder = (name: string): string => {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  describe('file', () => {
    it('scrapes JSON and multi-document YAML files matched by a glob into typed items', async () => {
      const dir = folder('mixed');
      writeFileSync(path.join(dir, 'app.json'), JSON.stringify({ id: 'app-1', kind: 'App', owner: 'ops' }));
      writeFileSync(path.join(dir, 'hosts.yaml'), 'id: host-1\nkind: Host\n---\nid: host-2\nkind: Host\nowner: dba\n');
      const result = await runFileSource(
        { kind: 'file', index: 0, spec: { paths: [`${dir}/*.json`, `${dir}/*.yaml`], id: '$.id', type: 'File::Config', name: '$.id', labels: { owner: '$.owner' } } },
        context,
      );
      expect(result.errors).toEqual([]);
      expect(result.complete).toBe(true);
      const byId = new Map(result.items.map((item) => [item.externalId, item]));
      expect([...byId.keys()].sort()).toEqual(['app-1', 'host-1', 'host-2']);
      expect(byId.get('app-1')).toMatchObject({ type: 'File::Config', format: 'json', labels: { owner: 'ops' }, source: 'file:mixed/app.json' });
      expect(byId.get('host-2')).toMatchObject({ format: 'yaml', labels: { owner: 'dba' }, config: { id: 'host-2', kind: 'Host', owner: 'dba' } });
    });

    it('splits one document into many items with the items JSONPath, and reads relative globs under the roots', async () => {
      const dir = folder('split');
      writeFileSync(path.join(dir, 'inventory.yaml'), 'servers:\n  - name: a\n    os: linux\n  - name: b\n    os: windows\n');
      const result = await runFileSource(
        { kind: 'file', index: 1, spec: { paths: ['split/*.yaml'], items: '$.servers[*]', id: '$.name', type: 'Server::Host', tags: { os: '$.os' }, format: 'yaml' } },
        context,
      );
      expect(result.complete).toBe(true);
      expect(result.items.map((item) => [item.externalId, item.name, item.tags])).toEqual([
        ['a', 'a', { os: 'linux' }],
        ['b', 'b', { os: 'windows' }],
      ]);
    });

    it('reports a malformed file as an error entry naming it and marks the result incomplete, keeping the good files', async () => {
      const dir = folder('malformed');
      writeFileSync(path.join(dir, 'good.yaml'), 'id: fine\n');
      writeFileSync(path.join(dir, 'bad.yaml'), 'id: [unclosed\n');
      writeFileSync(path.join(dir, 'noid.json'), '{"name": "nameless"}');
      const result = await runFileSource({ kind: 'file', index: 2, spec: { paths: [`${dir}/*`], id: '$.id', type: 'File::Config' } }, context);
      expect(result.items.map((item) => item.externalId)).toEqual(['fine']);
      expect(result.complete).toBe(false);
      expect(result.errors).toEqual([
        { where: 'file[2] malformed/bad.yaml', message: expect.stringMatching(/not valid YAML/) },
        { where: 'file[2] malformed/noid.json', message: expect.stringMatching(/no id/) },
      ]);
    });

    it('refuses a symlink whose target lies outside the roots', async () => {
      const dir = folder('links');
      const secret = path.join(outside, 'secret.yaml');
      writeFileSync(secret, 'id: stolen\n');
      symlinkSync(secret, path.join(dir, 'escape.yaml'));
      writeFileSync(path.join(dir, 'own.yaml'), 'id: own\n');
      const result = await runFileSource({ kind: 'file', index: 0, spec: { paths: [`${dir}/*.yaml`], id: '$.id', type: 'File::Config' } }, context);
      expect(result.items.map((item) => item.externalId)).toEqual(['own']);
      expect(result.complete).toBe(false);
      expect(result.errors).toEqual([{ where: 'file[0] links/escape.yaml', message: 'is a symlink that leads outside the scrape roots: not read' }]);
      expect(JSON.stringify(result)).not.toContain('stolen');
    });

    it('refuses a glob outside the roots without reading it', async () => {
      writeFileSync(path.join(outside, 'other.yaml'), 'id: outside\n');
      const result = await runFileSource({ kind: 'file', index: 0, spec: { paths: [`${outside}/*.yaml`, `${root}/../*/other.yaml`], id: '$.id', type: 'File::Config' } }, context);
      expect(result.items).toEqual([]);
      expect(result.complete).toBe(false);
      expect(result.errors).toHaveLength(2);
      for (const error of result.errors) expect(error.message).toMatch(/outside the scrape roots/);
    });

    it('skips a file larger than 10 MB with an error entry', async () => {
      const dir = folder('large');
      writeFileSync(path.join(dir, 'huge.json'), `{"id":"x","pad":"${'a'.repeat(10 * 1024 * 1024)}"}`);
      const result = await runFileSource({ kind: 'file', index: 0, spec: { paths: [`${dir}/*.json`], id: '$.id', type: 'File::Config' } }, context);
      expect(result.items).toEqual([]);
      expect(result.errors[0]?.message).toMatch(/larger than 10 MB/);
    });
  });

  describe('http', () => {
    let peer: LocalHttp;
    let elsewhere: LocalHttp;

    beforeAll(async () => {
      const inventory = { data: { hosts: [{ uid: 'h1', hostname: 'alpha', health: 'healthy' }, { uid: 'h2', hostname: 'beta', health: 'unhealthy' }] } };
      peer = await startLocalHttp({
        '/inventory': json(inventory),
        '/yaml': (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/yaml' }).end('uid: y1\n---\nuid: y2\n');
        },
        '/moved': (_request, response) => {
          response.writeHead(302, { location: '/inventory' }).end();
        },
        '/broken': (_request, response) => {
          response.writeHead(503).end('down');
        },
      });
      elsewhere = await startLocalHttp({ '/inventory': json(inventory) });
      await createConnection(server.pool, context.secretKey, { name: 'inventory-api', type: 'http', url: peer.url, username: 'scraper', password: 'conn-pass-9876' }, null);
    });
    afterAll(async () => {
      await peer.close();
      await elsewhere.close();
    });

    const spec = { items: '$.data.hosts', id: '$.uid', type: 'Inventory::Host', name: '$.hostname', health: '$.health' };

    it('fetches items with the method, headers and body given, opening sealed header values', async () => {
      const entry = {
        ...spec,
        url: `${peer.url}/inventory`,
        method: 'post',
        headers: [
          { name: 'X-Api-Key', value: 'sealed-key-1234' },
          { name: 'Accept', value: 'application/json' },
        ],
        body: { query: 'all' },
      };
      const [sealed] = sealScraperSpec(context.secretKey, context.scraperId, { http: [entry] }).http;
      expect(JSON.stringify(sealed)).not.toContain('sealed-key-1234');
      const result = await runHttpSource({ kind: 'http', index: 0, spec: sealed ?? {} }, context);
      expect(result.errors).toEqual([]);
      expect(result.complete).toBe(true);
      expect(result.items.map((item) => [item.externalId, item.name, item.health, item.source])).toEqual([
        ['h1', 'alpha', 'healthy', `${peer.url}/inventory`],
        ['h2', 'beta', 'unhealthy', `${peer.url}/inventory`],
      ]);
      const seen = peer.requests.at(-1);
      expect(seen).toMatchObject({ method: 'POST', body: '{"query":"all"}', headers: { 'x-api-key': 'sealed-key-1234', accept: 'application/json' } });
    });

    it('reads a YAML answer as one item per document', async () => {
      const result = await runHttpSource({ kind: 'http', index: 0, spec: { url: `${peer.url}/yaml`, id: '$.uid', type: 'Inventory::Doc' } }, context);
      expect(result.items.map((item) => [item.externalId, item.format])).toEqual([
        ['y1', 'yaml'],
        ['y2', 'yaml'],
      ]);
    });

    it("sends a connection's credentials to the connection's own origin", async () => {
      const result = await runHttpSource({ kind: 'http', index: 0, spec: { ...spec, connection: 'connection://default/inventory-api', url: `${peer.url}/inventory` } }, context);
      expect(result.complete).toBe(true);
      expect(result.items).toHaveLength(2);
      const expected = `Basic ${Buffer.from('scraper:conn-pass-9876').toString('base64')}`;
      expect(peer.requests.at(-1)?.headers.authorization).toBe(expected);
    });

    it("never sends a connection's password to a URL on another origin", async () => {
      const before = elsewhere.requests.length;
      const result = await runHttpSource({ kind: 'http', index: 0, spec: { ...spec, connection: 'connection://default/inventory-api', url: `${elsewhere.url}/inventory` } }, context);
      expect(result.items).toEqual([]);
      expect(result.complete).toBe(false);
      expect(result.errors[0]?.message).toMatch(/origin/);
      const received = elsewhere.requests.slice(before);
      for (const request of received) expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain('conn-pass-9876');
    });

    it('sends credentials written into the URL as Basic auth and keeps them out of the items', async () => {
      const inline = peer.url.replace('http://', 'http://reader:url-pass-5555@');
      const result = await runHttpSource({ kind: 'http', index: 0, spec: { ...spec, url: `${inline}/inventory` } }, context);
      expect(result.complete).toBe(true);
      expect(peer.requests.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from('reader:url-pass-5555').toString('base64')}`);
      expect(result.items[0]?.source).toBe(`${peer.url}/inventory`);
      expect(JSON.stringify(result)).not.toContain('url-pass-5555');
    });

    it('does not follow a redirect and reports it', async () => {
      const before = peer.requests.length;
      const result = await runHttpSource({ kind: 'http', index: 3, spec: { ...spec, connection: 'connection://default/inventory-api', url: `${peer.url}/moved` } }, context);
      expect(result.complete).toBe(false);
      expect(result.errors).toEqual([{ where: `http[3] ${peer.url}/moved`, message: expect.stringMatching(/HTTP 302: redirects are not followed/) }]);
      expect(peer.requests.slice(before).map((request) => request.url)).toEqual(['/moved']);
    });

    it('reports a non-2xx answer and an unknown connection as errors, never a throw', async () => {
      const broken = await runHttpSource({ kind: 'http', index: 0, spec: { ...spec, url: `${peer.url}/broken` } }, context);
      expect(broken).toMatchObject({ items: [], complete: false, errors: [{ message: expect.stringMatching(/HTTP 503/) }] });
      const missing = await runHttpSource({ kind: 'http', index: 0, spec: { ...spec, connection: 'connection://default/nope' } }, context);
      expect(missing).toMatchObject({ items: [], complete: false, errors: [{ message: expect.stringMatching(/not found/) }] });
    });
  });

  describe('sql', () => {
    let target: PostgresTarget;

    // Starting the second database (a PGlite over TCP on the embedded run) is slow on a busy machine: a hook, not a test.
    beforeAll(async () => {
      target = await startPostgresTarget();
      await createConnection(server.pool, context.secretKey, { name: 'samples-db', type: 'postgres', url: target.url }, null);
    });
    afterAll(async () => {
      await target.close();
    });

    it('turns each row into an item, read-only, and refuses a write', async () => {
      const query = "select n, 'sample-' || n as label from samples order by n";
      const result = await runSqlSource(
        { kind: 'sql', index: 0, spec: { connection: 'connection://default/samples-db', query, id: '$.n', type: 'Database::Sample', name: '$.label' } },
        context,
      );
      expect(result.errors).toEqual([]);
      expect(result.complete).toBe(true);
      expect(result.items.map((item) => [item.externalId, item.name, item.source, item.config])).toEqual([
        ['1', 'sample-1', 'sql:default/samples-db', { n: 1, label: 'sample-1' }],
        ['2', 'sample-2', 'sql:default/samples-db', { n: 2, label: 'sample-2' }],
      ]);

      const write = await runSqlSource({ kind: 'sql', index: 1, spec: { url: target.url, query: 'insert into writes values (1) returning id', id: '$.id', type: 'Database::Row' } }, context);
      expect(write.complete).toBe(false);
      expect(write.errors[0]).toMatchObject({ where: 'sql[1]', message: expect.stringMatching(/read-only/) });
      expect(await target.writes()).toBe(0);
    });

    it("refuses the console's own database", async () => {
      const ownUrl = server.pool.options.connectionString;
      const url = ownUrl ?? `postgres://u@localhost/postgres?host=${encodeURIComponent(String(server.pool.options.host))}`;
      const result = await runSqlSource({ kind: 'sql', index: 0, spec: { url, query: 'select id from people', id: '$.id', type: 'Opsdeck::Person' } }, context);
      expect(result.items).toEqual([]);
      expect(result.complete).toBe(false);
      expect(result.errors[0]?.message).toMatch(/own database/);
    });

    it('reports bad credentials, an unreachable server and sql_server as error entries without the password', async () => {
      const unreachable = await runSqlSource(
        { kind: 'sql', index: 0, spec: { url: 'postgres://u:wrong-pass-4321@127.0.0.1:1/none', query: 'select 1 as id', id: '$.id', type: 'Database::Row' } },
        context,
      );
      expect(unreachable.complete).toBe(false);
      expect(unreachable.errors).toHaveLength(1);
      expect(JSON.stringify(unreachable)).not.toContain('wrong-pass-4321');
      const sqlServer = await runSqlSource({ kind: 'sql', index: 0, spec: { driver: 'sql_server', url: 'sqlserver://h:1433', query: 'select 1', id: '$.id', type: 'Database::Row' } }, context);
      expect(sqlServer.errors).toEqual([{ where: 'sql[0]', message: 'no driver for sql_server in this server' }]);
    });
  });
});
