import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { openScraperSpec } from '../src/modules/scrapers/scraper-secrets';
import { TEST_SECRET_KEY } from './global-setup';
import { startTestServer, type TestServer } from './harness';
import { parse as parseYaml } from 'yaml';
import { SCRAPER_EXAMPLE_SPEC } from '@opsdeck/shared';

const ROOT = '/srv/scrape';
const HTTP_PASSWORD = 'http-pass-7a1c';
const HTTP_TOKEN = 'bearer-token-5e2b';
const SQL_PASSWORD = 'sql-pass-3d9f';
const HTTP_USER = 'user-ada-61b4';

const missionControl = {
  apiVersion: 'configs.flanksource.com/v1',
  kind: 'ScrapeConfig',
  metadata: { name: 'prod', namespace: 'default', labels: { team: 'ops' } },
  spec: {
    schedule: '@every 30m',
    full: false,
    logLevel: 'debug',
    retention: {
      changes: [{ name: 'diff', age: '7d', count: 100 }],
      types: [{ name: 'Kubernetes::Pod', createdAge: '30d', updatedAge: '7d', deletedAge: '1h' }],
    },
    kubernetes: [
      {
        clusterName: 'prod',
        useCache: true,
        exclusions: { namespace: ['kube-system'] },
        transform: { exclude: [{ types: ['Kubernetes::*'], jsonpath: '.metadata.ownerReferences' }] },
      },
    ],
    file: [{ type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', paths: [`${ROOT}/manifests/*.yaml`], format: 'yaml', icon: 'kubernetes' }],
    http: [{ type: 'Api::Status', id: '$.id', items: '.results[*]', url: 'https://status.example.test/api' }],
  },
};

const file = { type: 'File::Doc', id: '$.id', paths: [`${ROOT}/*.json`], format: 'json', icon: 'file' };

describe('scraper specs saved through the data API', () => {
  let server: TestServer;
  let editor: string;
  let admin: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  const save = (spec: unknown, extra: Record<string, unknown> = {}) =>
    server.call('POST', '/api/db/config_scrapers', editor, { name: 'scraper', spec, ...extra }, { prefer: 'return=representation' });

  beforeAll(async () => {
    process.env.OPSDECK_SCRAPE_ROOTS = ROOT;
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    admin = await server.cookieFor('admin');
    const created = await server.call('POST', '/api/canary/connections', admin, { name: 'status-api', type: 'http', url: 'https://status.example.test' });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    if (previousRoots === undefined) delete process.env.OPSDECK_SCRAPE_ROOTS;
    else process.env.OPSDECK_SCRAPE_ROOTS = previousRoots;
    await server.close();
  });

  it('saves a Mission Control ScrapeConfig pasted unchanged', async () => {
    const saved = await save(missionControl);
    expect(saved.status, saved.text).toBe(201);
    const [row] = saved.json as unknown as Array<{ spec: unknown }>;
    expect(row?.spec).toEqual(missionControl);
  });

  it("accepts the Add Scraper form's example as it is, whatever the scrape roots, so the first Save succeeds", async () => {
    const saved = await save(parseYaml(SCRAPER_EXAMPLE_SPEC) as unknown, { name: 'add-scraper-example' });
    expect(saved.status, saved.text).toBe(201);
  });

  it('refuses each bad spec with a coded 400 that names the field', async () => {
    const cases: Array<{ label: string; spec: unknown; code: string; details: string }> = [
      { label: 'a kind this server does not run', spec: { file: [file], aws: [{ region: ['eu-west-1'] }] }, code: 'OD_SCRAPER_KIND', details: 'spec.aws' },
      { label: 'a missing required field', spec: { kubernetes: [{ useCache: true }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].clusterName' },
      { label: 'a file source without paths', spec: { file: [{ ...file, paths: undefined }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths' },
      { label: 'full mode beside a kubernetes source', spec: { file: [file], kubernetes: [{ clusterName: 'c' }], full: true }, code: 'OD_SCRAPER_FIELD', details: 'spec.full' },
      { label: 'a misspelt field', spec: { file: [{ ...file, path: ['x.json'] }] }, code: 'OD_SCRAPER_FIELD', details: 'spec.file[0].path' },
      { label: 'a JSONPath transform', spec: { file: [{ ...file, transform: { jsonpath: '$.a' } }] }, code: 'OD_SCRAPER_FIELD', details: 'spec.file[0].transform.jsonpath' },
      { label: 'a JavaScript transform beside expr', spec: { file: [{ ...file, transform: { javascript: 'config', expr: 'config' } }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].transform.javascript' },
      { label: 'http pagination whose CEL reads an unknown variable', spec: { http: [{ type: 'Api::Status', id: '$.id', url: 'https://status.example.test/api', pagination: { nextPageExpr: 'x' } }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.http[0].pagination.nextPageExpr' },
      { label: 'a CEL function this server lacks', spec: { file: [{ ...file, transform: { changes: { exclude: ["jmespath('a', config) == 'x'"] } } }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].transform.changes.exclude[0]' },
      { label: 'a JSONPath that does not parse', spec: { file: [{ ...file, id: '$.metadata[' }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].id' },
      { label: "a JSONPath ending in '| [0]', which config-db's parser refuses too", spec: { file: [{ ...file, name: '$.Tags[?(@.Key=="Name")].Value | [0]' }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].name' },
      { label: 'a glob outside the roots', spec: { file: [{ ...file, paths: [`${ROOT}/a.json`, '/etc/*.conf'] }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[1]' },
      { label: 'a path climbing out with ..', spec: { file: [{ ...file, paths: [`${ROOT}/../../etc/passwd`] }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' },
      {
        label: 'an inline kubeconfig',
        spec: { kubernetes: [{ clusterName: 'c', kubeconfig: { value: 'apiVersion: v1\nkind: Config\nusers: []' } }] },
        code: 'OD_SCRAPER_SPEC',
        details: 'spec.kubernetes[0].kubeconfig.value',
      },
      { label: 'an sql source without connection or url', spec: { sql: [{ type: 'Db::Row', id: '$.id', query: 'select 1' }] }, code: 'OD_SCRAPER_SPEC', details: 'spec.sql[0].connection' },
      { label: 'a schedule that does not parse', spec: { file: [file], schedule: '@every never' }, code: 'OD_SCRAPER_SPEC', details: 'spec.schedule' },
      { label: 'a timeout over one hour', spec: { file: [file], timeout: '90m' }, code: 'OD_SCRAPER_SPEC', details: 'spec.timeout' },
      {
        label: "a url off its connection's origin",
        spec: { http: [{ type: 'Api::Status', id: '$.id', connection: 'connection://default/status-api', url: 'https://elsewhere.example.test/steal' }] },
        code: 'OD_CONNECTION_ORIGIN',
        details: 'spec.http[0].url',
      },
    ];
    for (const { label, spec, code, details } of cases) {
      const refused = await save(spec);
      expect(refused.status, label).toBe(400);
      expect(refused.json, label).toMatchObject({ code, details });
    }
    const count = await server.pool.query(`select count(*)::int as n from config_scrapers where name = 'scraper'`);
    expect(count.rows[0]).toEqual({ n: 1 });
  });

  it('refuses a schedule column that is not a schedule', async () => {
    const refused = await save({ file: [file] }, { schedule: 'every tuesday' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_SCRAPER_SPEC', details: 'schedule' });
  });

  it("refuses an sql source that names the console's own database", async () => {
    const own =
      server.running.context.db.mode === 'embedded'
        ? `postgres://postgres@${encodeURIComponent(String(server.pool.options.host))}/postgres`
        : String(server.pool.options.connectionString);
    const refused = await save({ sql: [{ type: 'Db::Row', id: '$.id', connection: own, query: 'select 1 as id' }] });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_OWN_DATABASE', details: 'spec.sql[0].connection' });
  });

  it('stores inline secrets sealed, never answers them in clear, and keeps them when the stored spec is sent back', async () => {
    const spec = {
      http: [
        {
          type: 'Api::Status',
          id: '$.id',
          url: 'https://status.example.test/api',
          username: HTTP_USER,
          password: { value: HTTP_PASSWORD },
          headers: [
            { name: 'Authorization', value: `Bearer ${HTTP_TOKEN}` },
            { name: 'Accept', value: 'application/json' },
          ],
        },
      ],
      sql: [{ type: 'Db::Row', id: '$.id', connection: `postgres://reader:${SQL_PASSWORD}@db.example.test:5432/app`, query: 'select 1 as id' }],
    };
    const saved = await save(spec, { name: 'sealed' });
    expect(saved.status, saved.text).toBe(201);
    const [row] = saved.json as unknown as Array<{ id: string; spec: Record<string, unknown> }>;
    if (row === undefined) throw new Error('no row came back');
    for (const secret of [HTTP_PASSWORD, HTTP_TOKEN, SQL_PASSWORD]) expect(saved.text).not.toContain(secret);
    const read = await server.call('GET', `/api/db/config_scrapers?id=eq.${row.id}`, editor);
    for (const secret of [HTTP_PASSWORD, HTTP_TOKEN, SQL_PASSWORD, HTTP_USER]) expect(read.text).not.toContain(secret);
    expect(read.text).toContain('application/json');
    const stored = await server.pool.query<{ spec: Record<string, unknown> }>('select spec from config_scrapers where id = $1', [row.id]);
    const storedSpec = stored.rows[0]?.spec ?? {};
    expect(JSON.stringify(storedSpec)).not.toContain(SQL_PASSWORD);
    const opened = openScraperSpec(TEST_SECRET_KEY, row.id, storedSpec);
    expect(opened).toMatchObject({
      http: [{ username: HTTP_USER, password: HTTP_PASSWORD, headers: [{ value: `Bearer ${HTTP_TOKEN}` }, { value: 'application/json' }] }],
      sql: [{ connection: `postgres://reader:${SQL_PASSWORD}@db.example.test:5432/app` }],
    });
    const kept = await server.call('PATCH', `/api/db/config_scrapers?id=eq.${row.id}`, editor, { spec: row.spec }, { prefer: 'return=representation' });
    expect(kept.status, kept.text).toBe(200);
    const after = await server.pool.query<{ spec: Record<string, unknown> }>('select spec from config_scrapers where id = $1', [row.id]);
    expect(openScraperSpec(TEST_SECRET_KEY, row.id, after.rows[0]?.spec ?? {})).toEqual(opened);
  });

  it('serves the JSON Schema, which accepts a sample ScrapeConfig and flags a missing required field', async () => {
    const reply = await fetch(`${server.url}/api/schemas/scrape-config.schema.json`, { headers: { cookie: editor } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('private, max-age=3600');
    const schema = (await reply.json()) as Schema;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const validator = new Validator(schema, '2020-12', false);
    expect(validator.validate(missionControl).errors).toEqual([]);
    expect(validator.validate({ kubernetes: [{ useCache: true }] }).valid).toBe(false);
    const anonymous = await fetch(`${server.url}/api/schemas/scrape-config.schema.json`);
    expect(anonymous.status).toBe(401);
  });
});
