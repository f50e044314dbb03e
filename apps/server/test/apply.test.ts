import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

function canary(name: string, check = 'http:\n    - name: probe\n      url: http://127.0.0.1:9/', labels = 'team: web'): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: shop
  labels:
    ${labels}
spec:
  schedule: "@every 5m"
  ${check}
`;
}

const SCRAPER = `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: status-api
  namespace: shop
spec:
  http:
    - type: Api::Status
      id: $.id
      url: https://status.example.test/api
`;

const PLAYBOOK = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: restart-shop
  namespace: shop
spec:
  description: Restart the shop
  configs:
    - types: [Kubernetes::Deployment]
  actions:
    - name: restart
      exec:
        script: kubectl rollout restart deployment {{.config.name}}
`;

const TOPOLOGY = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop
  namespace: shop
spec:
  type: App
  schedule: "@every 10m"
  components:
    - name: Frontend
`;

const run = promisify(execFile);

const EXEC = 'exec:\n    - name: probe\n      script: "true"';

interface Outcome {
  file: string | null;
  index: number | null;
  kind: string;
  namespace: string;
  name: string;
  action: string;
  error: { code: string; details: string | null } | null;
}

describe('POST /api/apply', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;

  const apply = (body: Record<string, unknown>, options: { cookie?: string; query?: string } = {}) =>
    server.call('POST', `/api/apply${options.query ?? ''}`, options.cookie ?? admin, body);
  const outcomes = (json: Record<string, unknown>) => json.documents as Outcome[];
  const liveRow = async (table: string, name: string) =>
    (await server.pool.query<{ id: string; source: string; labels: Record<string, string> }>(`select id, source, to_jsonb(t) -> 'labels' as labels from ${table} t where namespace = 'shop' and name = $1 and deleted_at is null`, [name])).rows[0];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
  });

  afterAll(async () => {
    await server.close();
  });

  it('creates every kind of a multi-document YAML, marks each source apply, and syncs the canary checks', async () => {
    const reply = await apply({ yaml: [canary('web'), SCRAPER, PLAYBOOK, TOPOLOGY].join('---\n') });
    expect(reply.status, reply.text).toBe(200);
    expect(outcomes(reply.json).map((o) => `${o.kind} ${o.name} ${o.action}`)).toEqual([
      'Canary web created',
      'ScrapeConfig status-api created',
      'Playbook restart-shop created',
      'Topology shop created',
    ]);
    for (const [table, name] of [['canaries', 'web'], ['config_scrapers', 'status-api'], ['playbooks', 'restart-shop'], ['topologies', 'shop']] as const) {
      expect((await liveRow(table, name))?.source).toBe('apply');
    }
    const web = await liveRow('canaries', 'web');
    const checks = await server.pool.query('select type from checks where canary_id = $1 and deleted_at is null', [web?.id]);
    expect(checks.rows).toEqual([{ type: 'http' }]);
  });

  it('reports a re-apply of the same document unchanged, and a changed one updated in place', async () => {
    const before = await liveRow('canaries', 'web');
    const again = await apply({ yaml: canary('web') });
    expect(outcomes(again.json).map((o) => o.action)).toEqual(['unchanged']);
    const changed = await apply({ yaml: canary('web', undefined, 'team: storefront') });
    expect(outcomes(changed.json).map((o) => o.action)).toEqual(['updated']);
    const after = await liveRow('canaries', 'web');
    expect(after?.id).toBe(before?.id);
    expect(after?.labels).toEqual({ team: 'storefront' });
  });

  it('reports per document what a dry run would do, refusals included, and changes nothing', async () => {
    const files = [{ path: 'shop/canaries.yaml', content: [canary('web', undefined, 'team: dry'), canary('new-one'), canary('broken', 'http:\n    - name: probe\n      url: http://127.0.0.1:9/\n      tlsConfig:\n        cert: pem')].join('---\n') }];
    const reply = await apply({ files }, { query: '?dryRun=true' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.dryRun).toBe(true);
    const [web, created, broken] = outcomes(reply.json);
    expect(web?.action).toBe('updated');
    expect(created?.action).toBe('created');
    expect(broken?.action).toBe('refused');
    expect(broken?.error?.details).toContain('shop/canaries.yaml document 3');
    expect(broken?.error?.details).toContain('tlsConfig');
    expect((await liveRow('canaries', 'web'))?.labels).toEqual({ team: 'storefront' });
    expect(await liveRow('canaries', 'new-one')).toBeUndefined();
  });

  it('refuses an invalid document with its file, document index and field, and writes none of the request', async () => {
    const files = [
      { path: 'a.yaml', content: canary('first-of-two') },
      { path: 'b.yaml', content: `${canary('fine')}---\n${canary('bad-schedule').replace('@every 5m', '8 46 *')}` },
    ];
    const reply = await apply({ files });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json.details).toMatch(/^b\.yaml document 2: .*schedule/);
    expect(await liveRow('canaries', 'first-of-two')).toBeUndefined();
    expect(await liveRow('canaries', 'fine')).toBeUndefined();
  });

  it('refuses a kind or apiVersion it does not apply by name, and a field a resource does not have', async () => {
    const view = 'apiVersion: mission-control.flanksource.com/v1\nkind: View\nmetadata:\n  name: n\nspec:\n  columns: []\n';
    const kind = await apply({ files: [{ path: 'n.yaml', content: view }] });
    expect(kind.status).toBe(400);
    expect(kind.json).toMatchObject({ code: 'OD_APPLY_KIND', details: 'n.yaml document 1: kind' });
    expect(String(kind.json.message)).toContain('View');
    const stray = await apply({ yaml: `${canary('stray')}extra: true\n` });
    expect(stray.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: '(request body) document 1: extra' });
  });

  it('reads unquoted annotation values as text, as canary-checker writes them, and still refuses a label that is not text', async () => {
    const annotated = canary('annotated').replace('metadata:\n', 'metadata:\n  annotations:\n    debug: true\n    retries: 3\n');
    const reply = await apply({ files: [{ path: 'a.yaml', content: annotated }] }, { query: '?dryRun=true' });
    expect(reply.status, reply.text).toBe(200);
    expect(outcomes(reply.json)[0]?.action).toBe('created');
    const labelled = await apply({ files: [{ path: 'l.yaml', content: canary('labelled', undefined, 'debug: true') }] });
    expect(labelled.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: 'l.yaml document 1: metadata.labels.debug' });
  });

  it('refuses an editor who applies an exec canary, which only admins may save, while the editor may apply other canaries', async () => {
    const exec = await apply({ yaml: `${canary('editor-ok')}---\n${canary('editor-exec', EXEC)}` }, { cookie: editor });
    expect(exec.status, exec.text).toBe(403);
    expect(exec.json.details).toContain('document 2');
    expect(await liveRow('canaries', 'editor-exec')).toBeUndefined();
    expect(await liveRow('canaries', 'editor-ok')).toBeUndefined();
    const plain = await apply({ yaml: canary('editor-ok') }, { cookie: editor });
    expect(plain.status, plain.text).toBe(200);
  });

  it('refuses console edits and deletes of an applied resource, and leaves the rows of the console alone', async () => {
    const web = await liveRow('canaries', 'web');
    const patch = await server.call('PATCH', `/api/db/canaries?id=eq.${web?.id}`, admin, { description: 'edited in the UI' });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.json.code).toBe('OD_APPLIED_READ_ONLY');
    const remove = await server.call('DELETE', `/api/db/canaries?id=eq.${web?.id}`, admin);
    expect(remove.json.code).toBe('OD_APPLIED_READ_ONLY');
    const viaCanaryRoute = await server.call('PATCH', `/api/canary/canaries/${web?.id}`, admin, { description: 'edited in the canary editor' });
    expect(viaCanaryRoute.status, viaCanaryRoute.text).toBe(400);
    expect(viaCanaryRoute.json.code).toBe('OD_APPLIED_READ_ONLY');
    const deleteViaCanaryRoute = await server.call('DELETE', `/api/canary/canaries/${web?.id}`, admin);
    expect(deleteViaCanaryRoute.json.code).toBe('OD_APPLIED_READ_ONLY');
    const ui = await server.call('POST', '/api/db/canaries', admin, { name: 'made-in-ui', namespace: 'shop', spec: { http: [{ name: 'probe', url: 'http://127.0.0.1:9/' }] } });
    expect(ui.status, ui.text).toBe(201);
    const takeover = await apply({ yaml: canary('made-in-ui') });
    expect(takeover.status).toBe(409);
    expect(takeover.json.code).toBe('OD_APPLY_SOURCE_CONFLICT');
  });

  it('prunes the rows of its own source the request no longer holds, and never a row made in the console', async () => {
    const reply = await apply({ yaml: [canary('web', undefined, 'team: storefront'), SCRAPER].join('---\n') }, { query: '?prune=true' });
    expect(reply.status, reply.text).toBe(200);
    const pruned = outcomes(reply.json).filter((o) => o.action === 'pruned').map((o) => `${o.kind} ${o.name}`);
    expect(pruned.sort()).toEqual(['Canary editor-ok', 'Playbook restart-shop', 'Topology shop']);
    expect(await liveRow('playbooks', 'restart-shop')).toBeUndefined();
    expect(await liveRow('canaries', 'made-in-ui')).toBeDefined();
    expect(await liveRow('canaries', 'web')).toBeDefined();
  });

  it('applies a folder from npm run apply with an API token, one line per document, and exits 1 on a refusal', async () => {
    const created = await server.call('POST', '/api/auth/api-tokens', editor, { name: 'apply-cli', role: 'editor', expiresInDays: 1 });
    expect(created.status, created.text).toBe(201);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'apply-cli-'));
    try {
      mkdirSync(path.join(folder, 'canaries'));
      writeFileSync(path.join(folder, 'canaries', 'cli.yaml'), canary('from-cli'));
      const cli = (...extra: string[]) =>
        run(process.execPath, ['scripts/apply.mjs', '-f', folder, '--server', server.url, ...extra], { env: { ...process.env, OPSDECK_TOKEN: String(created.json.token) } });
      const applied = await cli();
      expect(applied.stdout).toBe('canary.shop/from-cli created (canaries/cli.yaml#1)\n');
      expect((await liveRow('canaries', 'from-cli'))?.source).toBe('apply');
      writeFileSync(path.join(folder, 'canaries', 'exec.yaml'), canary('cli-exec', EXEC));
      const refused = await cli().then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain('canaries/exec.yaml document 1');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
