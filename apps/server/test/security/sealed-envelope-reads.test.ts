import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import type { Role } from '@opsdeck/shared';
import { schemaCacheFor } from '../../src/data-api/data-api-plugin';
import { redactSecretEnvelopes } from '../../src/platform/sealed-redaction';
import { startTestServer, type TestServer } from '../harness';

/** An envelope whose ciphertext is recognisable in any answer, text or YAML. */
function envelope(tag: string): { $encrypted: string } {
  return { $encrypted: Buffer.from(`${tag}-ciphertext-marker-of-issue-31`).toString('base64') };
}

const CANARY_AUTH = envelope('canary-authorization');
const CANARY_BODY = envelope('canary-body');
/** Sorts after CANARY_AUTH, and its canary's name before: the ordering test tells the two orders apart. */
const SECOND_AUTH = { $encrypted: `Z${envelope('second-canary').$encrypted}` };
const CHECK_AUTH = envelope('check-authorization');
const SCRAPER_PASSWORD = envelope('scraper-password');
const PLAYBOOK_HEADER = envelope('playbook-header');
const PLAYBOOK_ENV = envelope('playbook-env');
const OUTBOX_AUTH = envelope('outbox-authorization');
const CIPHERTEXTS = [CANARY_AUTH, CANARY_BODY, SECOND_AUTH, CHECK_AUTH, SCRAPER_PASSWORD, PLAYBOOK_HEADER, PLAYBOOK_ENV, OUTBOX_AUTH].map(
  (sealed) => sealed.$encrypted,
);

/** Text in ordinary string fields that looks like an envelope; it must come back exactly as written. */
const LOOKALIKE = 'copy this: "$encrypted": "x", or {"$encrypted": "y"}';

const READERS: Role[] = ['viewer', 'responder', 'commander'];
const WRITERS: Role[] = ['editor', 'admin'];

/** A non-empty envelope in a JSON answer (compact or PostgreSQL's spacing), never an escaped look-alike inside a string. */
const JSON_ENVELOPE = /"\$encrypted"\s*:\s*"[^"]/;
/** The same in YAML, where the redacted envelope is `$encrypted: ""` (its quotes escaped when the YAML sits in JSON). */
const YAML_ENVELOPE = /\$encrypted:\s*(?!\\?"\\?"|'')\S/;

function expectNoCiphertext(text: string, where: string): void {
  for (const ciphertext of CIPHERTEXTS) expect(text, where).not.toContain(ciphertext);
  expect(text, where).not.toMatch(JSON_ENVELOPE);
  expect(text, where).not.toMatch(YAML_ENVELOPE);
}

describe('readers who cannot write a resource never get its sealed secrets (issue #31)', () => {
  let server: TestServer;
  const cookies = new Map<Role, string>();
  let canaryId: string;
  let secondCanaryId: string;
  let checkId: string;
  let scraperId: string;
  let playbookId: string;
  let runId: string;
  let apiCanaryId: string;
  let componentId: string;
  const previousRole = process.env.OPSDECK_ROLE;

  const cookie = (role: Role): string => cookies.get(role) ?? '';
  const get = (role: Role, url: string) => server.call('GET', url, cookie(role));

  /** Every read path of the issue that answers a spec, a copy of one, or a YAML form of one. */
  const readPaths = (): string[] => [
    `/api/db/canaries?id=eq.${canaryId}`,
    `/api/db/canaries?id=eq.${canaryId}&select=auth:spec->http->0->headers->Authorization,cipher:spec->http->0->headers->Authorization->>$encrypted`,
    `/api/db/canaries?id=eq.${canaryId}&select=id,text:spec::text`,
    `/api/db/canaries?id=eq.${canaryId}&select=id,checks(*)`,
    `/api/db/checks?id=eq.${checkId}`,
    `/api/db/checks?id=eq.${checkId}&select=id,canaries(*)`,
    `/api/db/check_statuses?select=check_id,checks(spec)&limit=5`,
    `/api/db/canaries_with_status?id=eq.${canaryId}`,
    `/api/db/config_scrapers?id=eq.${scraperId}`,
    `/api/db/config_scrapers_with_status?id=eq.${scraperId}`,
    `/api/db/integrations?id=eq.${scraperId}`,
    `/api/db/integrations_with_status?id=eq.${scraperId}`,
    `/api/db/playbooks?id=eq.${playbookId}`,
    `/api/db/playbook_runs?id=eq.${runId}`,
    `/api/db/playbook_runs?id=eq.${runId}&select=id,spec,playbooks(spec)`,
    `/api/db/agent_outbox?kind=eq.check_status`,
    `/api/db/rpc/canaries_sealed_probe?id=eq.${canaryId}`,
    `/api/canary/canaries/${canaryId}`,
    `/api/canary/canaries/${apiCanaryId}`,
    '/api/canary/canaries',
    `/api/canary/api/details?check=${checkId}`,
    '/api/canary/api/summary',
    '/api/playbook/list',
    `/api/playbook/run/${runId}`,
    '/api/topology',
  ];

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    for (const role of [...READERS, ...WRITERS]) cookies.set(role, await server.cookieFor(role));
    const canarySpec = {
      http: [{ name: 'sealed-http', url: 'http://127.0.0.1:9/', description: LOOKALIKE, headers: { Accept: 'application/json', Authorization: CANARY_AUTH }, body: CANARY_BODY }],
    };
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('sealed-a', $1) returning id`, [JSON.stringify(canarySpec)]);
    canaryId = canary.rows[0]?.id ?? '';
    const second = await server.pool.query<{ id: string }>(`insert into canaries (name, spec) values ('sealed-b', $1) returning id`, [
      JSON.stringify({ http: [{ name: 'second-http', url: 'http://127.0.0.1:9/', headers: { Authorization: SECOND_AUTH } }] }),
    ]);
    secondCanaryId = second.rows[0]?.id ?? '';
    const check = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, spec) values ($1, 'http', 'sealed-http', $2) returning id`,
      [canaryId, JSON.stringify({ name: 'sealed-http', url: 'http://127.0.0.1:9/', description: LOOKALIKE, headers: { Authorization: CHECK_AUTH } })],
    );
    checkId = check.rows[0]?.id ?? '';
    await server.pool.query(`insert into check_statuses (check_id, time, status, duration, message) values ($1, now(), true, 5, 'ok')`, [checkId]);
    const scraper = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, spec) values ('sealed-scraper', $1) returning id`, [
      JSON.stringify({ http: [{ url: 'http://127.0.0.1:9/items', username: 'reader', password: SCRAPER_PASSWORD, description: LOOKALIKE }] }),
    ]);
    scraperId = scraper.rows[0]?.id ?? '';
    const playbookSpec = {
      description: LOOKALIKE,
      actions: [
        { name: 'notify', http: { url: 'http://127.0.0.1:9/hook', headers: [{ name: 'Authorization', value: PLAYBOOK_HEADER }] } },
        { name: 'script', exec: { script: 'echo ok', env: [{ name: 'TOKEN', value: PLAYBOOK_ENV }] } },
      ],
    };
    const playbook = await server.pool.query<{ id: string }>(`insert into playbooks (name, spec) values ('sealed-playbook', $1) returning id`, [JSON.stringify(playbookSpec)]);
    playbookId = playbook.rows[0]?.id ?? '';
    const run = await server.pool.query<{ id: string }>(`insert into playbook_runs (playbook_id, status, spec) values ($1, 'completed', $2) returning id`, [
      playbookId,
      JSON.stringify(playbookSpec),
    ]);
    runId = run.rows[0]?.id ?? '';
    await server.pool.query(`insert into agent_outbox (kind, payload) values ('check_status', $1)`, [
      JSON.stringify({ canary: 'sealed-a', name: 'sealed-http', spec: { headers: { Authorization: OUTBOX_AUTH } } }),
    ]);
    // A function answering canary rows, as an rpc read path.
    await server.pool.query(`create function canaries_sealed_probe() returns setof canaries language sql stable as 'select * from canaries'`);
    await schemaCacheFor(server.running.context.db)?.reload();
    // One canary sealed by the server itself, from a plaintext header an admin typed.
    const saved = await server.call('POST', '/api/canary/canaries', cookie('admin'), {
      name: 'sealed-by-server',
      spec: { http: [{ name: 'server-sealed', url: 'http://127.0.0.1:9/', headers: { Authorization: 'Bearer typed-by-the-admin' } }] },
    });
    expect(saved.status, saved.text).toBe(201);
    apiCanaryId = String(saved.json.id);
    const component = await server.pool.query<{ id: string }>(`insert into components (name, type) values ('sealed-component', 'Service') returning id`);
    componentId = component.rows[0]?.id ?? '';
    await server.pool.query(
      `insert into check_component_relationships (component_id, check_id, canary_id, selector_id) values ($1, $2, $3, 'manual')`,
      [componentId, checkId, canaryId],
    );
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it.each(READERS)('hands a %s no ciphertext on any read path, and the redacted envelope where a secret is set', async (role) => {
    for (const url of readPaths()) {
      const reply = await get(role, url);
      expect(reply.status, `${url}: ${reply.text}`).toBe(200);
      expectNoCiphertext(reply.text, url);
    }
    const [row] = (await get(role, `/api/db/canaries?id=eq.${canaryId}`)).json as unknown as Array<{ spec: { http: Array<Record<string, unknown>> } }>;
    expect(row?.spec.http[0]).toMatchObject({ headers: { Accept: 'application/json', Authorization: { $encrypted: '' } }, body: { $encrypted: '' } });
    const record = (await get(role, `/api/canary/canaries/${apiCanaryId}`)).json as { spec: { http: Array<{ headers: Record<string, unknown> }> }; yaml: string };
    expect(record.spec.http[0]?.headers.Authorization).toEqual({ $encrypted: '' });
    expect(record.yaml).toContain('$encrypted: ""');
    expect(record.yaml).not.toContain('typed-by-the-admin');
  });

  it.each(WRITERS)('still hands an %s the envelopes, which the edit forms send back', async (role) => {
    const canary = await get(role, `/api/db/canaries?id=eq.${canaryId}&select=id,spec,checks(spec)`);
    expect(canary.text).toContain(CANARY_AUTH.$encrypted);
    expect(canary.text).toContain(CHECK_AUTH.$encrypted);
    expect((await get(role, `/api/canary/canaries/${canaryId}`)).text).toContain(CANARY_BODY.$encrypted);
    expect((await get(role, `/api/canary/api/details?check=${checkId}`)).text).toContain(CHECK_AUTH.$encrypted);
    expect((await get(role, `/api/db/config_scrapers_with_status?id=eq.${scraperId}`)).text).toContain(SCRAPER_PASSWORD.$encrypted);
    expect((await get(role, `/api/db/playbooks?id=eq.${playbookId}`)).text).toContain(PLAYBOOK_ENV.$encrypted);
    expect((await get(role, `/api/db/playbook_runs?id=eq.${runId}`)).text).toContain(PLAYBOOK_HEADER.$encrypted);
    expect((await get(role, '/api/db/agent_outbox?kind=eq.check_status')).text).toContain(OUTBOX_AUTH.$encrypted);
    expect((await get(role, `/api/db/rpc/canaries_sealed_probe?id=eq.${canaryId}`)).text).toContain(CANARY_AUTH.$encrypted);
    const record = (await get(role, `/api/canary/canaries/${apiCanaryId}`)).json as { spec: { http: Array<{ headers: { Authorization: { $encrypted: string } } }> } };
    expect(record.spec.http[0]?.headers.Authorization.$encrypted).not.toBe('');
  });

  it('lets no filter, count or order read the ciphertext for a viewer, while an editor filters on it as before', async () => {
    const cipher = CANARY_AUTH.$encrypted;
    const path = 'spec->http->0->headers->Authorization->>$encrypted';
    const probes = [
      `/api/db/canaries?id=eq.${canaryId}&${path}=eq.${encodeURIComponent(cipher)}`,
      `/api/db/canaries?id=eq.${canaryId}&${path}=like.${encodeURIComponent(cipher.slice(0, 6))}*`,
      `/api/db/canaries?id=eq.${canaryId}&spec=cs.${encodeURIComponent(JSON.stringify({ http: [{ headers: { Authorization: CANARY_AUTH } }] }))}`,
      `/api/db/canaries?id=eq.${canaryId}&spec->>http=like.*${encodeURIComponent(cipher)}*`,
      `/api/db/checks?id=eq.${checkId}&select=id,canaries!inner(id)&canaries.spec->>http=like.*${encodeURIComponent(cipher)}*`,
    ];
    for (const url of probes) {
      const viewer = await server.call('GET', url, cookie('viewer'), undefined, { prefer: 'count=exact' });
      expect(viewer.status, viewer.text).toBe(200);
      expect(viewer.json, url).toEqual([]);
      expect(viewer.text).not.toContain(cipher);
      const editor = await get('editor', url);
      expect((editor.json as unknown as unknown[]).length, url).toBe(1);
    }
    const order = `/api/db/canaries?id=in.(${canaryId},${secondCanaryId})&select=name&order=${path}.asc,name.desc`;
    expect((await get('editor', order)).json).toEqual([{ name: 'sealed-a' }, { name: 'sealed-b' }]);
    // Every ciphertext is '' for the viewer, so only the name orders the rows.
    expect((await get('viewer', order)).json).toEqual([{ name: 'sealed-b' }, { name: 'sealed-a' }]);
  });

  it('returns text that only looks like an envelope unchanged, in the data API and in the routes', async () => {
    const [canary] = (await get('viewer', `/api/db/canaries?id=eq.${canaryId}`)).json as unknown as Array<{ spec: { http: Array<{ description: string }> } }>;
    expect(canary?.spec.http[0]?.description).toBe(LOOKALIKE);
    const [check] = (await get('viewer', `/api/db/checks?id=eq.${checkId}&select=d:spec->>description`)).json as unknown as Array<{ d: string }>;
    expect(check?.d).toBe(LOOKALIKE);
    const detail = (await get('viewer', `/api/canary/api/details?check=${checkId}`)).json as { check: { spec: { description: string } } };
    expect(detail.check.spec.description).toBe(LOOKALIKE);
    const [playbook] = (await get('viewer', `/api/db/playbooks?id=eq.${playbookId}&select=spec`)).json as unknown as Array<{ spec: { description: string } }>;
    expect(playbook?.spec.description).toBe(LOOKALIKE);
  });

  it('empties exactly the envelopes in SQL that it empties in TypeScript, whatever the strings around them hold', async () => {
    const tricky = [
      { a: LOOKALIKE, k: { $encrypted: 'ab"c\\' }, [`{"$encrypted": "z"}`]: 1, [`x"$encrypted`]: 'w', arr: ['$encrypted', { $encrypted: 'q' }] },
      { $encrypted: 'top', extra: { $encrypted: 5 }, nested: [[{ deep: { $encrypted: 'd' } }]] },
      JSON.parse('{"__proto__": {"$encrypted": "p"}, "constructor": {"$encrypted": "c"}}') as unknown,
      [LOOKALIKE, ', "$encrypted": "s"', { '': { $encrypted: '' } }],
    ];
    for (const value of tricky) {
      const found = await server.pool.query<{ redacted: unknown }>('select redact_secret_envelopes($1::jsonb) as redacted', [JSON.stringify(value)]);
      expect(found.rows[0]?.redacted).toEqual(redactSecretEnvelopes(value));
    }
    const plain = await server.pool.query<{ same: boolean }>(`select redact_secret_envelopes(spec) = spec as same from canaries where name = 'sealed-a'`);
    expect(plain.rows[0]?.same).toBe(false);
  });

  it('refuses the redacted envelope when an editor writes it back: it opens nowhere', async () => {
    const viewer = (await get('viewer', `/api/canary/canaries/${apiCanaryId}`)).json as { spec: Record<string, unknown> };
    const written = await server.call('PATCH', `/api/canary/canaries/${apiCanaryId}`, cookie('editor'), { spec: viewer.spec });
    expect(written.status, written.text).toBe(400);
    expect(written.json).toMatchObject({ code: 'OD_SPEC_SECRET' });
  });

  it('keeps the redaction function out of the rpc endpoint, for every role', async () => {
    const called = await server.call('POST', '/api/db/rpc/redact_secret_envelopes', cookie('admin'), { value: { $encrypted: 'x' } });
    expect(called.status).toBe(403);
  });

  it('puts no ciphertext into a topology snapshot', async () => {
    const response = await fetch(`${server.url}/api/snapshot/topology/${componentId}?start=1d`, { headers: { cookie: cookie('viewer') } });
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const text = Object.values(files).map((file) => strFromU8(file)).join('\n');
    expect(text).toContain('sealed-http');
    expectNoCiphertext(text, 'snapshot');
  });

  it('shows a viewer no envelope in any table, view or function row the data API lets them read', async () => {
    const relations = await server.pool.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') order by 1`,
    );
    let read = 0;
    for (const { name } of relations.rows) {
      const reply = await get('viewer', `/api/db/${name}?limit=1000`);
      expect(reply.status, `${name}: ${reply.text}`).toBeLessThan(500);
      if (reply.status !== 200) continue;
      read += 1;
      expectNoCiphertext(reply.text, name);
    }
    expect(read).toBeGreaterThan(50);
  });
});
