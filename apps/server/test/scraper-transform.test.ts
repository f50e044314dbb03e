import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScrape, type ScrapeRunOutcome } from '../src/modules/scrapers/run-scrape';
import { sourceRunners, type SourceRegistry } from '../src/modules/scrapers/sources';
import type { ScrapeResult, SourceRunner } from '../src/modules/scrapers/types';
import { startTestServer, type TestServer } from './harness';

/**
 * Issue #32 item 4, scraper half (ADR 0072): a file scraper over files this test writes, saved through the data API as
 * config-db's fixtures are written (no format, no icon, `items` without `$`), and each transform applied as config-db
 * applies it before the ingest stores anything.
 */

interface StoredItem {
  name: string;
  type: string;
  config: Record<string, unknown>;
  tags: Record<string, string>;
  labels: Record<string, string>;
  properties: Array<Record<string, unknown>>;
}

const configs = [
  { id: 1, name: 'Config1', password: 'p4ss-word-1', secret: 's3cret-1', region: 'eu-west-1', team: 'payments' },
  { id: 2, name: 'Config2', password: 'p4ss-word-2', secret: 's3cret-2', region: 'us-east-1', team: 'search' },
];

describe('scraper transforms on a file scraper, as config-db applies them', () => {
  let server: TestServer;
  let root: string;
  let admin: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  function folder(name: string, files: Record<string, unknown>): string {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), typeof content === 'string' ? content : JSON.stringify(content));
    return dir;
  }

  async function save(name: string, spec: Record<string, unknown>): Promise<string> {
    const saved = await server.call('POST', '/api/db/config_scrapers', admin, { name, spec }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    const id = (saved.json as unknown as Array<{ id: string }>)[0]?.id;
    if (id === undefined) throw new Error('no scraper id');
    return id;
  }

  async function run(id: string, runners?: SourceRegistry): Promise<ScrapeRunOutcome> {
    const row = await server.pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null }>('select id, name, spec, agent_id from config_scrapers where id = $1', [id]);
    const scraper = row.rows[0];
    if (scraper === undefined) throw new Error('no scraper');
    return runScrape({ pool: server.pool, secretKey: server.running.context.config.secretKey, roots: [root], ownDatabaseUrl: null, ...(runners === undefined ? {} : { runners }) }, scraper);
  }

  async function items(id: string): Promise<StoredItem[]> {
    const rows = await server.pool.query<StoredItem>(
      'select name, type, config, tags, labels, properties from config_items where scraper_id = $1 and deleted_at is null order by name',
      [id],
    );
    return rows.rows;
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-transform-')));
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });

  afterAll(async () => {
    if (previousRoots === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_SCRAPE_ROOTS');
    else process.env.OPSDECK_SCRAPE_ROOTS = previousRoots;
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('accepts a config-db file scraper without format or icon, with a bare type and class, and stores its items', async () => {
    const dir = folder('car', { 'car.json': { reg_no: 'A123', make: 'Volvo' } });
    const id = await save('car', { file: [{ type: 'Car', class: 'Car', id: '$.reg_no', paths: [`${dir}/car.json`] }] });
    const outcome = await run(id);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const [car] = await items(id);
    expect(car).toMatchObject({ name: 'A123', type: 'Car', config: { make: 'Volvo' } });
    const stored = await server.pool.query<{ config_class: string }>('select config_class from config_items where scraper_id = $1', [id]);
    expect(stored.rows[0]?.config_class).toBe('Car');
  });

  it('reads a file with format: properties as one map of its keys', async () => {
    const dir = folder('properties', { 'postgresql.conf': "# settings\nmax_connections = 100  # restart\ncluster_name = 'main'\n" });
    const id = await save('properties', { file: [{ format: 'properties', type: 'PostgreSQLProperties', id: 'postgresql-properties', paths: [`${dir}/postgresql.conf`] }] });
    const outcome = await run(id);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const [settings] = await items(id);
    expect(settings).toMatchObject({ name: 'postgresql-properties', type: 'PostgreSQLProperties', config: { max_connections: '100', cluster_name: "'main'" } });
  });

  it('cuts a document by items written without the leading $', async () => {
    const dir = folder('items', { 'db.json': { database: [{ name: 'orders' }, { name: 'users' }] } });
    const id = await save('items', { file: [{ type: 'Postgres::Database', id: '$.name', items: '.database', paths: [`${dir}/*.json`] }] });
    expect((await run(id)).status).toBe('SUCCESS');
    expect((await items(id)).map((item) => item.name)).toEqual(['orders', 'users']);
  });

  it('excludes JSONPaths from every config, and from the listed types only', async () => {
    const dir = folder('exclude', { 'configs.json': configs });
    const id = await save('exclude', {
      file: [
        {
          type: '$.name',
          id: '$.id',
          name: '$.name',
          class: 'MySecrets',
          items: '$[*]',
          transform: { exclude: [{ jsonpath: '.password' }, { types: ['MySecrets::Config2'], jsonpath: '$.secret' }] },
          paths: [`${dir}/configs.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    const [first, second] = await items(id);
    expect(first?.config).toEqual({ id: 1, name: 'Config1', secret: 's3cret-1', region: 'eu-west-1', team: 'payments' });
    expect(second?.config).toEqual({ id: 2, name: 'Config2', region: 'us-east-1', team: 'search' });
  });

  it('names configs and excludes elements by JSONPath filters, judged as config-db judges them', async () => {
    const tagged = configs.map((config) => ({ ...config, Tags: [{ Key: 'Owner', Value: config.team }, { Key: 'Name', Value: `${config.name}-tagged` }] }));
    const dir = folder('filter', { 'configs.json': tagged });
    const id = await save('filter', {
      file: [
        {
          type: 'Tagged::Config',
          id: '$.id',
          name: '$.Tags[?(@.Key == "Name")].Value',
          items: '$[*]',
          transform: { exclude: [{ jsonpath: "$.Tags[?(@.Key == 'Owner')]" }] },
          paths: [`${dir}/configs.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    const stored = await items(id);
    expect(stored.map((item) => item.name)).toEqual(['Config1-tagged', 'Config2-tagged']);
    expect(stored[0]?.config.Tags).toEqual([{ Key: 'Name', Value: 'Config1-tagged' }]);
  });

  it('masks a JSONPath by md5sum or a fixed value on the configs its selector picks, and leaves the others', async () => {
    const dir = folder('mask', { 'configs.json': configs });
    const id = await save('mask', {
      file: [
        {
          type: 'Config',
          id: '$.id',
          name: '$.name',
          items: '$[*]',
          transform: {
            mask: [
              { selector: "config.name == 'Config1'", jsonpath: '$.password', value: 'md5sum' },
              { selector: "config.name == 'Config1'", jsonpath: '.secret', value: '***' },
            ],
          },
          paths: [`${dir}/configs.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    const [first, second] = await items(id);
    expect(first?.config).toMatchObject({ password: createHash('md5').update('p4ss-word-1').digest('hex'), secret: '***' });
    expect(second?.config).toMatchObject({ password: 'p4ss-word-2', secret: 's3cret-2' });
  });

  it('turns each document into the configs a CEL transform.expr returns, before id and name are read', async () => {
    const dir = folder('script', { 'todos.json': [{ id: 1, title: 'one' }, { id: 2, title: 'two' }, { id: 30, title: 'late' }] });
    const id = await save('script', {
      file: [
        {
          type: 'Todo::Task',
          id: '$.id',
          name: '$.title',
          transform: { expr: 'dyn(config).filter(item, item.id <= 10).map(item, {"title": item.title, "id": item.id, "done": false}).toJSON()' },
          paths: [`${dir}/todos.json`],
        },
      ],
    });
    const outcome = await run(id);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    expect((await items(id)).map((item) => [item.name, item.config])).toEqual([
      ['one', { id: 1, title: 'one', done: false }],
      ['two', { id: 2, title: 'two', done: false }],
    ]);
  });

  it('turns each document into the configs a sandboxed transform.javascript returns, as config-db runs it', async () => {
    const dir = folder('script-js', { 'multiple.json': [{ id: 1, name: 'one' }, { id: 2, name: 'two' }] });
    const id = await save('script-js', {
      file: [
        {
          type: 'Config',
          id: '$.id',
          name: '$.name',
          transform: { javascript: 'for (var i = 0; i < config.length; i++) { config[i].added = "a"; config[i].id = String(config[i].id); }\nJSON.stringify(config)' },
          paths: [`${dir}/multiple.json`],
        },
      ],
    });
    const outcome = await run(id);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    expect((await items(id)).map((item) => [item.name, item.config])).toEqual([
      ['one', { id: '1', name: 'one', added: 'a' }],
      ['two', { id: '2', name: 'two', added: 'a' }],
    ]);
  });

  it('reports a transform.expr that fails on a document instead of storing it untransformed', async () => {
    const dir = folder('script-fails', { 'a.json': { id: 'a' } });
    const id = await save('script-fails', { file: [{ type: 'Thing', id: '$.id', transform: { expr: 'config.missing.map(i, i)' }, paths: [`${dir}/a.json`] }] });
    const outcome = await run(id);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.errors.map((error) => error.message).join('\n')).toMatch(/config\.missing/);
    expect(await items(id)).toEqual([]);
  });

  it('sets tags and labels from fixed values, JSONPaths and labels, and properties from templates per CEL filter', async () => {
    const dir = folder('tags', { 'configs.json': configs });
    const id = await save('tags', {
      file: [
        {
          type: 'Service::App',
          id: '$.id',
          name: '$.name',
          items: '$[*]',
          labels: { team: '$.team', tier: 'backend' },
          tags: [
            { name: 'region', jsonpath: '$.region' },
            { name: 'env', value: 'prod' },
            { name: 'owner', label: 'team' },
          ],
          properties: [
            { name: 'Dashboard', icon: 'grafana', links: [{ text: 'open', url: 'https://grafana.test/d/app?var-app={{.name}}&id=$(.config.id)' }] },
            { filter: "config.region == 'eu-west-1'", name: 'Residency', text: 'EU ({{.config.region}})' },
          ],
          paths: [`${dir}/configs.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    const [first, second] = await items(id);
    expect(first?.labels).toEqual({ team: 'payments', tier: 'backend' });
    expect(first?.tags).toEqual({ region: 'eu-west-1', env: 'prod', owner: 'payments' });
    expect(first?.properties).toEqual([
      { name: 'Dashboard', icon: 'grafana', links: [{ text: 'open', url: 'https://grafana.test/d/app?var-app=Config1&id=1' }] },
      { name: 'Residency', text: 'EU (eu-west-1)' },
    ]);
    expect(second?.properties.map((property) => property.name)).toEqual(['Dashboard']);
  });

  it('links configs by relationship selectors (fixed, CEL and label lookups) among the configs of the run', async () => {
    const dir = folder('links', {
      'apps.json': [
        { kind: 'Service', name: 'web', selector: 'web-deploy', team: 'shop' },
        { kind: 'Deployment', name: 'web-deploy', team: 'shop' },
        { kind: 'Deployment', name: 'batch', team: 'data' },
      ],
    });
    const id = await save('links', {
      file: [
        {
          type: '$.kind',
          class: 'Kubernetes',
          id: '$.name',
          name: '$.name',
          items: '$[*]',
          labels: { team: '$.team' },
          transform: {
            relationship: [
              { filter: 'config_type == "Kubernetes::Service"', type: { value: 'Kubernetes::Deployment' }, name: { expr: 'config.selector' } },
              { filter: 'config_type == "Kubernetes::Deployment"', type: { value: 'Kubernetes::Service' }, labels: { team: { label: 'team' } } },
            ],
          },
          paths: [`${dir}/apps.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    const links = await server.pool.query<{ from_name: string; to_name: string }>(
      `select a.name as from_name, b.name as to_name from config_relationships r
         join config_items a on a.id = r.config_id join config_items b on b.id = r.related_id
        where r.selector_id = $1 and r.deleted_at is null order by 1, 2`,
      [`scraper:${id}`],
    );
    expect(links.rows).toEqual([
      { from_name: 'web', to_name: 'web-deploy' },
      { from_name: 'web-deploy', to_name: 'web' },
    ]);
  });

  it('maps and excludes the changes a source reports, by CEL over the change and its config', async () => {
    const dir = folder('changes', { 'app.json': { id: 'app-1', name: 'app' } });
    const id = await save('changes', {
      file: [
        {
          type: 'App::Service',
          id: '$.id',
          name: '$.name',
          transform: {
            changes: {
              mapping: [
                { filter: "change_type == 'BackOff' && config.name == 'app'", type: 'PodCrashLooping', severity: 'high', summary: 'crash looping: {{ .summary }} ({{ .config.name | upper }})' },
                { filter: "change_type == 'Noise'", action: 'ignore' },
              ],
              exclude: ['details.reason == "probe"'],
            },
          },
          paths: [`${dir}/app.json`],
        },
      ],
    });
    // A file source reports no changes of its own, so the test's runner adds events beside what it found.
    const fileRunner = sourceRunners.get('file');
    if (fileRunner === undefined) throw new Error('no file runner');
    const withEvents: SourceRegistry = new Map<string, SourceRunner>([
      [
        'file',
        async (entry, context): Promise<ScrapeResult> => {
          const found = await fileRunner(entry, context);
          const item = { type: 'App::Service', externalId: 'app-1' };
          const event = (externalChangeId: string, changeType: string, reason: string) => ({
            item,
            externalChangeId,
            changeType,
            severity: 'info' as const,
            summary: changeType,
            details: { reason },
            source: 'test',
            createdAt: new Date().toISOString(),
          });
          return { ...found, changes: [event('e1', 'BackOff', 'oom'), event('e2', 'Noise', 'x'), event('e3', 'Unhealthy', 'probe'), event('e4', 'Pulled', 'image')] };
        },
      ],
    ]);
    const outcome = await run(id, withEvents);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const changes = await server.pool.query<{ change_type: string; severity: string; summary: string }>(
      `select ch.change_type, ch.severity, ch.summary from config_changes ch join config_items c on c.id = ch.config_id
        where c.scraper_id = $1 and ch.change_type not in ('CREATE', 'diff') order by ch.change_type`,
      [id],
    );
    expect(changes.rows).toEqual([
      { change_type: 'PodCrashLooping', severity: 'high', summary: 'crash looping: BackOff (APP)' },
      { change_type: 'Pulled', severity: 'info', summary: 'Pulled' },
    ]);
  });

  it("runs the diffs it computes through the same mappings and exclusions, reading config-db's patch and summary", async () => {
    const pod = (restarts: number, phase: string) => ({ id: 'pod-1', name: 'web-0', kind: 'Pod', status: { phase, containerStatuses: [{ name: 'app', restartCount: restarts }] } });
    const app = (reconciledAt: string, revision: string) => ({ id: 'app-1', name: 'shop', kind: 'Application', apiVersion: 'argoproj.io/v1alpha1', status: { reconciledAt, revision } });
    const dir = folder('diffs', { 'pod.json': pod(0, 'Running'), 'app.json': app('t1', 'r1') });
    const id = await save('diffs', {
      file: [
        {
          type: '$.kind',
          id: '$.id',
          name: '$.name',
          transform: {
            changes: {
              // As Mission Control's kubernetes fixture writes them.
              mapping: [
                {
                  filter:
                    "change_type == 'diff' && summary == \"status.containerStatuses\" && patch != null && has(patch.status) && has(patch.status.containerStatuses) && patch.status.containerStatuses.size() > 0 && has(patch.status.containerStatuses[0].restartCount)",
                  type: 'PodCrashLooping',
                },
              ],
              exclude: ['change_type == "diff" && summary == "status.reconciledAt" && config != null && has(config.apiVersion) && config.apiVersion == "argoproj.io/v1alpha1" && has(config.kind) && config.kind == "Application"'],
            },
          },
          paths: [`${dir}/*.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    writeFileSync(path.join(dir, 'pod.json'), JSON.stringify(pod(1, 'Running')));
    writeFileSync(path.join(dir, 'app.json'), JSON.stringify(app('t2', 'r1')));
    const second = await run(id);
    expect(second.status, JSON.stringify(second.errors)).toBe('SUCCESS');
    writeFileSync(path.join(dir, 'pod.json'), JSON.stringify(pod(1, 'Failed')));
    writeFileSync(path.join(dir, 'app.json'), JSON.stringify(app('t3', 'r2')));
    expect((await run(id)).status).toBe('SUCCESS');
    const changes = await server.pool.query<{ name: string; change_type: string; summary: string; patches: string }>(
      `select c.name, ch.change_type, ch.summary, ch.patches from config_changes ch join config_items c on c.id = ch.config_id
        where c.scraper_id = $1 and ch.change_type <> 'CREATE' order by c.name, ch.created_at`,
      [id],
    );
    expect(changes.rows.map((row) => [row.name, row.change_type, row.summary])).toEqual([
      // The reconcile alone is excluded; with the revision beside it the summary names their parent and it is kept.
      ['shop', 'diff', 'status'],
      ['web-0', 'PodCrashLooping', 'status.containerStatuses'],
      ['web-0', 'diff', 'status.phase'],
    ]);
    // The stored patches stay the RFC 6902 operations the fingerprint is taken from.
    expect(JSON.parse(changes.rows[2]?.patches ?? 'null')).toEqual([{ op: 'replace', path: '/status/phase', value: 'Failed' }]);
  });

  it("maps a diff by gomplate's jq over its patch, as Mission Control's kubernetes fixture does", async () => {
    const release = (message: string) => ({ id: 'hr-1', name: 'podinfo', status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Healthy', message }] } });
    const dir = folder('jq-diffs', { 'hr.json': release('Health check failed') });
    const id = await save('jq-diffs', {
      file: [
        {
          type: 'Flux::HelmRelease',
          id: '$.id',
          name: '$.name',
          transform: {
            changes: {
              mapping: [
                {
                  filter: `change_type == 'diff' && jq('.status.conditions[]? | select(.type == "Healthy").message', patch).contains('Health check passed')`,
                  type: 'HealthCheckPassed',
                },
              ],
            },
          },
          paths: [`${dir}/hr.json`],
        },
      ],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    writeFileSync(path.join(dir, 'hr.json'), JSON.stringify(release('Health check passed')));
    const outcome = await run(id);
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const changes = await server.pool.query<{ change_type: string; summary: string }>(
      `select ch.change_type, ch.summary from config_changes ch join config_items c on c.id = ch.config_id where c.scraper_id = $1 and ch.change_type <> 'CREATE'`,
      [id],
    );
    expect(changes.rows).toEqual([{ change_type: 'HealthCheckPassed', summary: 'status.conditions' }]);
  });

  it('reports a change rule that cannot judge a diff and keeps the diff as it was', async () => {
    const dir = folder('diff-errors', { 'a.json': { id: 'a', name: 'a', value: 1 } });
    const id = await save('diff-errors', {
      file: [{ type: 'Test::Thing', id: '$.id', name: '$.name', transform: { changes: { mapping: [{ filter: 'patch.missing.deeper == 1', type: 'Never' }] } }, paths: [`${dir}/a.json`] }],
    });
    expect((await run(id)).status).toBe('SUCCESS');
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ id: 'a', name: 'a', value: 2 }));
    const outcome = await run(id);
    expect(outcome.status).toBe('WARNING');
    expect(outcome.errors.map((error) => error.where)).toEqual(['file[0] transform.changes.mapping[0].filter']);
    const changes = await server.pool.query<{ change_type: string; summary: string }>(
      `select ch.change_type, ch.summary from config_changes ch join config_items c on c.id = ch.config_id where c.scraper_id = $1 and ch.change_type <> 'CREATE'`,
      [id],
    );
    expect(changes.rows).toEqual([{ change_type: 'diff', summary: 'value' }]);
  });

  it("runs config-db's full mode: the config key is stored, changes become the item's changes once, and access data is reported as not run", async () => {
    const dir = folder('full', {
      'car.json': { reg_no: 'A123', config: { colour: 'blue' }, changes: [{ action: 'drive', summary: 'car colour changed to blue' }] },
      'org.json': { id: 'org-1', config: { name: 'Org' }, external_users: [{ name: 'Alice', account_id: 'a' }] },
    });
    const id = await save('full', { full: true, file: [{ type: 'Car', id: '$.reg_no', paths: [`${dir}/car.json`] }, { type: 'Organization', id: '$.id', paths: [`${dir}/org.json`] }] });
    const first = await run(id);
    expect(first.status).toBe('WARNING');
    expect(first.errors).toEqual([{ where: "file[1] full/org.json", message: expect.stringMatching(/^full mode: external_users is not run by this server/) }]);
    expect((await items(id)).map((item) => [item.type, item.config])).toEqual([
      ['Car', { colour: 'blue' }],
      ['Organization', { name: 'Org' }],
    ]);
    await run(id);
    const changes = await server.pool.query<{ change_type: string; summary: string }>(
      "select c.change_type, c.summary from config_changes c join config_items i on i.id = c.config_id where i.scraper_id = $1 and c.change_type <> 'CREATE' order by c.created_at",
      [id],
    );
    expect(changes.rows).toEqual([{ change_type: 'drive', summary: 'car colour changed to blue' }]);
  });
});
