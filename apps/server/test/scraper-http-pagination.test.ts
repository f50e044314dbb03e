import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { runScrape } from '../src/modules/scrapers';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { startSite } from './fixtures/local-targets';

const TOKEN = 'graph-bearer-token-5d1e';
/** The fixture's own nextPageExpr. */
const NEXT = '"@odata.nextLink" in response.body && response.body["@odata.nextLink"] != "" ? string(response.body["@odata.nextLink"]) : ""';

/** config-db's http-ms-graph.yaml: an API that pages its answer with a next link, followed with the request's credentials. */
describe('http scraper pagination', () => {
  let server: TestServer;
  let admin: string;
  let api: { url: string; close(): Promise<void> };
  let other: { url: string; close(): Promise<void> };
  const seen: Array<{ site: string; path: string; authorization: string }> = [];
  let nextElsewhere = '';

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    other = await startSite((req, res) => {
      seen.push({ site: 'other', path: req.url ?? '', authorization: req.headers.authorization ?? '' });
      res.end('{}');
    });
    api = await startSite((req, res) => {
      const url = new URL(req.url ?? '/', 'http://api');
      seen.push({ site: 'api', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization ?? '' });
      const page = Number(url.searchParams.get('page') ?? '1');
      const next = url.pathname === '/leaky' ? nextElsewhere : page < 3 ? `${api.url}${url.pathname}?page=${page + 1}` : '';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ value: [{ id: `g${page}a`, name: `group ${page}a` }, { id: `g${page}b`, name: `group ${page}b` }], '@odata.nextLink': next }));
    });
    nextElsewhere = `${other.url}/steal`;
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'graph', namespace: 'monitoring', type: 'http', url: api.url, password: TOKEN }, null);
  });
  afterAll(async () => {
    await api.close();
    await other.close();
    await server.close();
  });

  async function scrape(name: string, entry: Record<string, unknown>) {
    const saved = await server.call('POST', '/api/db/config_scrapers', admin, { name, spec: { http: [{ type: 'Azure::Group', id: '$.id', name: '$.name', connection: 'connection://monitoring/graph', ...entry }] } }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    const id = String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
    const row = await server.pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null }>('select id, name, spec, agent_id from config_scrapers where id = $1', [id]);
    const scraper = row.rows[0];
    if (scraper === undefined) throw new Error('no scraper');
    const outcome = await runScrape({ pool: server.pool, secretKey: TEST_SECRET_KEY, roots: [], ownDatabaseUrl: null }, scraper);
    const items = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 order by name', [id]);
    return { outcome, names: items.rows.map((item) => item.name) };
  }

  it('follows the next link page by page with the connection\'s token, merging each page\'s value list', async () => {
    seen.length = 0;
    const { outcome, names } = await scrape('graph-groups', { url: `${api.url}/groups?page=1`, pagination: { nextPageExpr: NEXT, maxPages: 5 }, transform: { expr: 'dyn(config).map(g, g).toJSON()' } });
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    expect(names).toEqual(['group 1a', 'group 1b', 'group 2a', 'group 2b', 'group 3a', 'group 3b']);
    expect(seen.map((request) => request.path)).toEqual(['/groups?page=1', '/groups?page=2', '/groups?page=3']);
    expect(seen.every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('stops at maxPages, reduces with reduceExpr, and keeps each page a document with perPage', async () => {
    const capped = await scrape('graph-capped', { url: `${api.url}/capped?page=1`, pagination: { nextPageExpr: NEXT, maxPages: 2, reduceExpr: 'acc + page.value.filter(g, g.id.endsWith("a"))' }, transform: { expr: 'dyn(config).map(g, g).toJSON()' } });
    expect(capped.outcome.status).toBe('SUCCESS');
    expect(capped.names).toEqual(['group 1a', 'group 2a']);
    const pages = await scrape('graph-pages', { url: `${api.url}/pages?page=1`, items: '$.value[*]', pagination: { nextPageExpr: NEXT, perPage: true } });
    expect(pages.outcome.status, JSON.stringify(pages.outcome.errors)).toBe('SUCCESS');
    expect(pages.names).toHaveLength(6);
  });

  it("never sends the request's credentials to a next link on another origin: the run reports it and stops", async () => {
    seen.length = 0;
    const { outcome } = await scrape('graph-leaky', { url: `${api.url}/leaky`, pagination: { nextPageExpr: NEXT }, transform: { expr: 'dyn(config).map(g, g).toJSON()' } });
    expect(JSON.stringify(outcome.errors)).toContain(`page 2: ${other.url}/steal is not on ${api.url}, where the request's credentials go: not fetched`);
    expect(seen.filter((request) => request.site === 'other')).toEqual([]);
  });

  it('refuses at save a pagination without nextPageExpr, with CEL that does not parse, or with a delay over a minute', async () => {
    for (const [pagination, details] of [
      [{ maxPages: 2 }, 'spec.http[0].pagination.nextPageExpr'],
      [{ nextPageExpr: 'response.body[' }, 'spec.http[0].pagination.nextPageExpr'],
      [{ nextPageExpr: '""', delay: '5m' }, 'spec.http[0].pagination.delay'],
      [{ nextPageExpr: '""', maxPages: -1 }, 'spec.http[0].pagination.maxPages'],
      [{ nextPageExpr: '""', follow: true }, 'spec.http[0].pagination.follow'],
    ] as const) {
      const refused = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'bad-pages', spec: { http: [{ type: 'T', id: '$.id', url: `${api.url}/x`, pagination }] } });
      expect(refused.status, JSON.stringify(pagination)).toBe(400);
      expect(refused.json.details, JSON.stringify(pagination)).toBe(details);
    }
  });
});
