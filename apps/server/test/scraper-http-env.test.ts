import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { runScrape } from '../src/modules/scrapers';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { startSite } from './fixtures/local-targets';

const API_KEY = 'k3y/with&special=chars';

/** config-db's http-lastfm.yaml: an http source whose url reads an env value taken from a secret (here a stored connection). */
describe('http scraper env and url templates', () => {
  let server: TestServer;
  let admin: string;
  let site: { url: string; close(): Promise<void> };
  let elsewhere: { url: string; close(): Promise<void> };
  const keys: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    const answer = (res: ServerResponse): void => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ artists: { artist: [{ name: 'Alpha', url: 'https://music.test/alpha' }, { name: 'Beta', url: 'https://music.test/beta' }] } }));
    };
    site = await startSite((req, res) => {
      keys.push(new URL(req.url ?? '/', 'http://x').searchParams.get('api_key') ?? '');
      answer(res);
    });
    elsewhere = await startSite((_req, res) => answer(res));
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'lastfm', namespace: 'mc', type: 'http', url: site.url, secret_properties: { API_KEY } }, null);
  });
  afterAll(async () => {
    await site.close();
    await elsewhere.close();
    await server.close();
  });

  const spec = (url: string): Record<string, unknown> => ({
    http: [
      {
        type: 'LastFM::Singer',
        name: '$.name',
        id: '$.url',
        env: [{ name: 'api_key', valueFrom: { secretKeyRef: { name: 'lastfm', key: 'API_KEY' } } }, { name: 'method', value: 'chart.gettopartists' }],
        url,
        transform: { expr: 'dyn(config).artists.artist.map(item, item).toJSON()' },
      },
    ],
  });

  async function save(name: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const reply = await server.call('POST', '/api/db/config_scrapers', admin, { name, namespace: 'mc', spec: body }, { prefer: 'return=representation' });
    return { status: reply.status, json: (Array.isArray(reply.json) ? reply.json[0] : reply.json) as Record<string, unknown> };
  }

  async function run(id: string) {
    const row = await server.pool.query<{ id: string; name: string; namespace: string; spec: unknown; agent_id: string | null }>('select id, name, namespace, spec, agent_id from config_scrapers where id = $1', [id]);
    const scraper = row.rows[0];
    if (scraper === undefined) throw new Error('no scraper');
    return runScrape({ pool: server.pool, secretKey: TEST_SECRET_KEY, roots: [], ownDatabaseUrl: null }, scraper);
  }

  it("fills {{.name}} in the url from env, a valueFrom from the connection's secret, percent-encoded, and stores no secret", async () => {
    const saved = await save('lastfm', spec(`${site.url}/2.0/?method={{.method}}&api_key={{.api_key}}&format=json`));
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    const outcome = await run(String(saved.json.id));
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    expect(keys.at(-1)).toBe(API_KEY);
    const items = await server.pool.query<{ name: string; config: string }>('select name, config::text as config from config_items where scraper_id = $1 order by name', [saved.json.id]);
    expect(items.rows.map((row) => row.name)).toEqual(['Alpha', 'Beta']);
    const history = await server.pool.query<{ text: string }>('select row_to_json(j)::text as text from job_history j where resource_id = $1', [saved.json.id]);
    expect(history.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(history.rows)).not.toContain(API_KEY);
  });

  it("refuses at save a url that would carry a connection's value to another origin, or that templates the host", async () => {
    const foreign = await save('lastfm-foreign', spec(`${elsewhere.url}/2.0/?api_key={{.api_key}}`));
    expect(foreign.status).toBe(400);
    expect(foreign.json).toMatchObject({ code: 'OD_VALUE_FROM_ORIGIN' });
    const host = await save('lastfm-host', { http: [{ type: 'T', id: '$.id', env: [{ name: 'region', value: 'eu' }], url: 'http://{{.region}}.music.test/' }] });
    expect(host.status).toBe(400);
    expect(host.json).toMatchObject({ code: 'OD_SCRAPER_SPEC', details: 'spec.http[0].url' });
    const twice = await save('lastfm-twice', { http: [{ type: 'T', id: '$.id', url: `${site.url}/{{.a}}`, env: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] }] });
    expect(twice.status).toBe(400);
    expect(twice.json).toMatchObject({ code: 'OD_SCRAPER_SPEC', details: 'spec.http[0].env[1].name' });
  });

  it('refuses env beside a url without a template, where nothing would read it', async () => {
    const unread = await save('lastfm-unread', { http: [{ type: 'T', id: '$.id', url: `${site.url}/`, env: [{ name: 'a', value: '1' }] }] });
    expect(unread.status).toBe(400);
    expect(unread.json).toMatchObject({ code: 'OD_SCRAPER_SPEC', details: 'spec.http[0].env' });
    expect(String(unread.json.message)).toContain('templated url');
  });

  it('fails the run naming the field when the connection has moved to another origin since the save', async () => {
    const saved = await save('lastfm-moved', spec(`${site.url}/2.0/?api_key={{.api_key}}`));
    expect(saved.status).toBe(201);
    await server.pool.query("update connections set url = $1 where namespace = 'mc' and name = 'lastfm'", [elsewhere.url]);
    try {
      const calls = keys.length;
      const outcome = await run(String(saved.json.id));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.errors).toEqual([{ where: 'http[0]', message: expect.stringMatching(/^env\[0\]\.valueFrom: the values of connection 'lastfm' go only to its origin/) }]);
      expect(keys.length).toBe(calls);
    } finally {
      await server.pool.query("update connections set url = $1 where namespace = 'mc' and name = 'lastfm'", [site.url]);
    }
  });
});
