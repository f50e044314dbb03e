import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonReply, type TestServer } from './harness';
import { QUOTE_NAME, SEARCH_FIXTURE_SQL, SEARCH_ID } from './search-fixture';

/** GET /api/search (issue #19 item 3): ranking, deleted rows, input limits and text that looks like SQL. */

interface Item {
  kind: string;
  id: string;
  title: string;
  subtitle?: string;
  url: string;
}

describe('GET /api/search', () => {
  let server: TestServer;
  let viewer: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(SEARCH_FIXTURE_SQL);
    viewer = await server.cookieFor('viewer');
  });
  afterAll(async () => {
    await server.close();
  });

  function get(query: string, cookie = viewer): Promise<JsonReply> {
    return server.call('GET', `/api/search?${query}`, cookie);
  }

  async function items(q: string, extra = ''): Promise<Item[]> {
    const reply = await get(`q=${encodeURIComponent(q)}${extra}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.json.items as Item[];
  }

  it('ranks the exact name first, then a name that starts with the text, then a word that does, then the text anywhere', async () => {
    const found = await items('qzxgate');
    expect(found.map((item) => `${item.kind}:${item.title}`)).toEqual([
      'config:qzxgate',
      'check:qzxgate-eu',
      'component:eu-qzxgate',
      'playbook:Restart qzxgate pods',
      'incident:Outage of myqzxgateway',
      'incident:Slow myqzxgateway',
    ]);
  });

  it('ignores case and surrounding white space', async () => {
    expect((await items('  QZXGATE ')).map((item) => item.title)[0]).toBe('qzxgate');
  });

  it('lists rows that need attention first within a tier: an unhealthy check, an incident that is not resolved', async () => {
    expect((await items('qzxwing')).map((item) => item.id)).toEqual([SEARCH_ID.checkUnhealthyWord, SEARCH_ID.checkHealthyWord]);
    const incidents = (await items('myqzxgateway')).filter((item) => item.kind === 'incident');
    expect(incidents.map((item) => item.id)).toEqual([SEARCH_ID.incidentOpen, SEARCH_ID.incidentResolved]);
  });

  it("gives each result the web app's page and a subtitle that identifies it", async () => {
    const byKind = new Map<string, Item>();
    for (const item of await items('qzxgate')) if (!byKind.has(item.kind)) byKind.set(item.kind, item);
    expect(byKind.get('config')?.url).toBe(`/catalog/${SEARCH_ID.configExact}`);
    expect(byKind.get('config')?.subtitle).toBe('SearchTest::Gateway · healthy');
    expect(byKind.get('check')?.url).toBe(`/health?checkId=${SEARCH_ID.checkPrefix}`);
    expect(byKind.get('component')?.url).toBe(`/topology/${SEARCH_ID.componentWord}`);
    expect(byKind.get('playbook')?.url).toBe(`/playbooks/${SEARCH_ID.playbookWord}`);
    expect(byKind.get('incident')?.url).toBe(`/incidents/${SEARCH_ID.incidentOpen}`);
    expect(byKind.get('incident')?.subtitle).toMatch(/^INC-\d+ · open · low$/);
  });

  it('tells same-named catalog items apart by their namespace and cluster in the subtitle', async () => {
    const inserted = await server.pool.query<{ id: string }>(
      `insert into config_items (name, type, config_class, health, tags) values
         ('qzxcart', 'Kubernetes::Deployment', 'Kubernetes', 'healthy', '{"namespace": "shop", "cluster": "eu-1"}'),
         ('qzxcart', 'Kubernetes::Deployment', 'Kubernetes', 'healthy', '{"namespace": "shop", "cluster": "us-1"}')
       returning id`,
    );
    try {
      const subtitles = (await items('qzxcart')).map((item) => item.subtitle).sort();
      expect(subtitles).toEqual(['Kubernetes::Deployment · shop · eu-1 · healthy', 'Kubernetes::Deployment · shop · us-1 · healthy']);
    } finally {
      await server.pool.query('delete from config_items where id = any($1::uuid[])', [inserted.rows.map((row) => row.id)]);
    }
  });

  it('finds an incident by its display id', async () => {
    const { rows } = await server.pool.query<{ incident_id: string }>('select incident_id from incidents where id = $1', [SEARCH_ID.incidentOpen]);
    const displayId = rows[0]?.incident_id ?? '';
    expect((await items(displayId))[0]).toMatchObject({ kind: 'incident', id: SEARCH_ID.incidentOpen });
  });

  it('never returns soft-deleted checks, config items, components or playbooks, even by their exact name', async () => {
    for (const name of ['qzxgate-gone', 'qzxgate-old', 'qzxgate-retired', 'qzxgate-legacy']) {
      expect(await items(name)).toEqual([]);
    }
    const ids = (await items('qzxgate', '&limit=50')).map((item) => item.id);
    expect(ids).not.toContain(SEARCH_ID.configGone);
    expect(ids).not.toContain(SEARCH_ID.checkGone);
    expect(ids).not.toContain(SEARCH_ID.componentGone);
    expect(ids).not.toContain(SEARCH_ID.playbookGone);
  });

  it('keeps to the limit, best results first', async () => {
    expect((await items('qzxgate', '&limit=2')).map((item) => item.title)).toEqual(['qzxgate', 'qzxgate-eu']);
  });

  it('answers an empty or missing text with no results', async () => {
    expect(await items('')).toEqual([]);
    expect(await items('   ')).toEqual([]);
    const reply = await get('');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ items: [] });
  });

  it('treats text that looks like SQL as text: a quote and a comment find the row named so, and nothing is dropped', async () => {
    expect((await items(QUOTE_NAME)).map((item) => item.id)).toEqual([SEARCH_ID.checkQuote]);
    expect(await items(`' or '1'='1`)).toEqual([]);
    expect(await items(`qzxgate'; delete from config_items; --`)).toEqual([]);
    const { rows } = await server.pool.query<{ n: number }>(`select count(*)::int as n from config_items where id = $1`, [SEARCH_ID.configExact]);
    expect(rows[0]?.n).toBe(1);
  });

  it('treats LIKE wildcards and regular expression characters as the characters themselves', async () => {
    expect((await items('%')).map((item) => item.title)).toEqual(['qzx 100% done']);
    expect(await items('qzx_ate')).toEqual([]);
    expect(await items('qzx.ate')).toEqual([]);
    expect(await items('qzx.*')).toEqual([]);
    expect(await items('(qzx')).toEqual([]);
    expect(await items('\\')).toEqual([]);
  });

  it('refuses a text longer than 200 characters, or with a control character, with OD_SEARCH_QUERY', async () => {
    expect((await get(`q=${'a'.repeat(200)}`)).status).toBe(200);
    for (const q of ['a'.repeat(201), 'qzx\u0000gate', 'qzx\u001bgate']) {
      const reply = await get(`q=${encodeURIComponent(q)}`);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 'OD_SEARCH_QUERY', details: 'q' });
    }
  });

  it('refuses a limit that is not a whole number from 1 to 50 with OD_SEARCH_LIMIT', async () => {
    for (const limit of ['0', '51', '-1', '1.5', 'abc', '1e1', '99999']) {
      const reply = await get(`q=qzxgate&limit=${encodeURIComponent(limit)}`);
      expect(reply.status, limit).toBe(400);
      expect(reply.json).toMatchObject({ code: 'OD_SEARCH_LIMIT', details: 'limit' });
    }
    expect((await items('qzxgate', '&limit=50')).length).toBeGreaterThan(0);
  });

  it('answers 401 without a session', async () => {
    const reply = await server.call('GET', '/api/search?q=qzxgate', '');
    expect(reply.status).toBe(401);
  });
});
