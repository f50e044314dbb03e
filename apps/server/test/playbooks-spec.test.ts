import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { loadTarget, targetMatches } from '../src/modules/playbooks/selectors';
import { startTestServer, type TestServer } from './harness';

interface PlaybookRow {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  category: string | null;
  icon: string | null;
  description: string | null;
  source: string;
  spec: Record<string, unknown>;
}

const pastedYaml = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: pasted-restart
  namespace: ops
spec:
  title: Restart the pod
  category: Kubernetes
  icon: kubernetes
  description: Deletes the pod so its deployment makes a new one
  runsOn: [local]
  configs:
    - types: [Kubernetes::Pod]
  parameters:
    - name: reason
      properties:
        maxLength: "100"
  actions:
    - name: ping
      http:
        url: https://example.test/restart/{{ params.reason }}
        method: post
`;

const httpSpec = { actions: [{ name: 'ping', http: { url: 'https://example.test/health' } }] };
const sqlSpec = { actions: [{ name: 'count', sql: { connection: 'connection://demo-db', query: 'select count(*) from t where name = $1', args: ['{{ params.name }}'] } }] };
const execSpec = { actions: [{ name: 'diagnose', exec: { script: 'uptime' } }] };

describe('playbook specs saved through the data API', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;
  let playbookId: string;

  const save = (body: unknown, cookie = editor) => server.call('POST', '/api/db/playbooks', cookie, body, { prefer: 'return=representation' });
  const update = (id: string, body: unknown, cookie = editor) =>
    server.call('PATCH', `/api/db/playbooks?id=eq.${id}`, cookie, body, { prefer: 'return=representation' });
  const count = async (name: string): Promise<number> => {
    const result = await server.pool.query<{ n: number }>('select count(*)::int as n from playbooks where name = $1', [name]);
    return result.rows[0]?.n ?? 0;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
    const saved = await save({ name: 'base-playbook', spec: httpSpec });
    expect(saved.status, saved.text).toBe(201);
    playbookId = (saved.json as unknown as PlaybookRow[])[0]?.id ?? '';
  });

  afterAll(async () => {
    await server.close();
  });

  it('saves a pasted Mission Control resource as its normalised spec, with name, namespace and card fields from it', async () => {
    const saved = await save({ spec: pastedYaml });
    expect(saved.status, saved.text).toBe(201);
    const [row] = saved.json as unknown as PlaybookRow[];
    expect(row).toMatchObject({
      name: 'pasted-restart',
      namespace: 'ops',
      title: 'Restart the pod',
      category: 'Kubernetes',
      icon: 'kubernetes',
      description: 'Deletes the pod so its deployment makes a new one',
      source: 'UI',
    });
    expect(row?.spec).toEqual({
      title: 'Restart the pod',
      category: 'Kubernetes',
      icon: 'kubernetes',
      description: 'Deletes the pod so its deployment makes a new one',
      configs: [{ types: ['Kubernetes::Pod'] }],
      parameters: [{ name: 'reason', type: 'text', properties: { maxLength: 100 } }],
      actions: [{ name: 'ping', http: { url: 'https://example.test/restart/{{ params.reason }}', method: 'POST' } }],
    });
  });

  it("keeps the row's own name and title over the resource's", async () => {
    const saved = await save({ name: 'own-restart', title: 'Own title', spec: pastedYaml });
    expect(saved.status, saved.text).toBe(201);
    expect((saved.json as unknown as PlaybookRow[])[0]).toMatchObject({ name: 'own-restart', namespace: 'ops', title: 'Own title', category: 'Kubernetes' });
  });

  it('refuses each bad spec with a coded 400 naming the field, and stores nothing', async () => {
    const cases: Array<{ label: string; spec: unknown; details: string; message?: string }> = [
      { label: 'no actions', spec: { title: 'x' }, details: 'spec.actions' },
      { label: 'an unnamed action', spec: { actions: [{ http: { url: 'https://x.test' } }] }, details: 'spec.actions[0].name' },
      { label: 'two actions of one name', spec: { actions: [httpSpec.actions[0], httpSpec.actions[0]] }, details: 'spec.actions[1].name' },
      { label: 'a gitops action', spec: { actions: [{ name: 'a', gitops: {} }] }, details: 'spec.actions[0].gitops', message: 'it runs exec, http, sql and notification actions' },
      { label: 'a query template that does not parse', spec: { actions: [{ name: 'a', sql: { connection: 'c', query: 'select {{ if .params.x }}1' } }] }, details: 'spec.actions[0].sql.query' },
      { label: 'a timeout over 1h', spec: { actions: [{ ...httpSpec.actions[0], timeout: '2h' }] }, details: 'spec.actions[0].timeout' },
      { label: 'a bad condition', spec: { actions: [{ ...httpSpec.actions[0], if: 'success(' }] }, details: 'spec.actions[0].if' },
      { label: 'a list without options', spec: { ...httpSpec, parameters: [{ name: 'size', type: 'list' }] }, details: 'spec.parameters[0].properties.options' },
      { label: 'an agent runner', spec: { ...httpSpec, runsOn: ['agent-1'] }, details: 'spec.runsOn' },
      { label: 'approval without approvers', spec: { ...httpSpec, approval: { approvers: {} } }, details: 'spec.approval.approvers' },
      { label: 'YAML that does not parse', spec: 'actions: [', details: 'spec' },
    ];
    for (const { label, spec, details, message } of cases) {
      const name = `bad-${label.replaceAll(' ', '-')}`;
      // As an admin, whom the execute rule lets through to the spec rules.
      const saved = await save({ name, spec }, admin);
      expect(saved.status, label).toBe(400);
      expect(saved.json, label).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details });
      if (message !== undefined) expect(String(saved.json.message), label).toContain(message);
      expect(await count(name), label).toBe(0);
    }
  });

  it('refuses a new playbook without a name', async () => {
    const saved = await save({ spec: httpSpec });
    expect(saved.status).toBe(400);
    expect(saved.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'name' });
  });

  it('refuses a bad spec sent by a filtered PATCH and keeps the stored one', async () => {
    const patched = await update(playbookId, { spec: { actions: [{ name: 'a', http: { method: 'GET' } }] } });
    expect(patched.status).toBe(400);
    expect(patched.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'spec.actions[0].http.url' });
    const stored = await server.pool.query<{ spec: unknown }>('select spec from playbooks where id = $1', [playbookId]);
    expect(stored.rows[0]?.spec).toEqual(httpSpec);
  });

  it('takes a PATCH with a good spec, storing it normalised and the title it brings', async () => {
    const patched = await update(playbookId, { spec: `title: Renamed\n${'actions:\n  - name: count\n    sql: {connection: connection://demo-db, query: select 1}\n'}` }, admin);
    expect(patched.status, patched.text).toBe(200);
    expect((patched.json as unknown as PlaybookRow[])[0]).toMatchObject({
      title: 'Renamed',
      spec: { title: 'Renamed', actions: [{ name: 'count', sql: { connection: 'connection://demo-db', query: 'select 1' } }] },
    });
  });

  it('applies the same rules to an upsert', async () => {
    const upsert = (body: unknown) =>
      server.call('POST', '/api/db/playbooks?on_conflict=id', editor, body, { prefer: 'resolution=merge-duplicates,return=representation' });
    const bad = await upsert({ id: playbookId, name: 'base-playbook', spec: { actions: [{ name: 'a', pod: {} }] } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'spec.actions[0].pod' });
    const exec = await upsert({ id: playbookId, name: 'base-playbook', spec: execSpec });
    expect(exec.status).toBe(403);
    const good = await upsert({ id: playbookId, name: 'base-playbook', spec: pastedYaml });
    expect(good.status, good.text).toBe(201);
    expect((good.json as unknown as PlaybookRow[])[0]).toMatchObject({ title: 'Restart the pod', spec: { configs: [{ types: ['Kubernetes::Pod'] }] } });
  });

  it('lets an editor save an http playbook, but not an sql one (a query with stored credentials is code), which an admin may save', async () => {
    expect((await save({ name: 'editor-http', spec: httpSpec })).status).toBe(201);
    const refused = await save({ name: 'editor-sql', spec: sqlSpec });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'OD_EXEC_FORBIDDEN' });
    expect(await count('editor-sql')).toBe(0);
    expect((await save({ name: 'admin-sql', spec: sqlSpec }, admin)).status).toBe(201);
  });

  it('refuses an exec playbook from an editor with the execute permission error, and saves it for an admin', async () => {
    const refused = await save({ name: 'editor-exec', spec: execSpec });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'OD_EXEC_FORBIDDEN' });
    expect(await count('editor-exec')).toBe(0);
    const patched = await update(playbookId, { spec: execSpec });
    expect(patched.status).toBe(403);
    const invalidExec = await save({ name: 'editor-exec-invalid', spec: { actions: [{ exec: {} }] } });
    expect(invalidExec.status).toBe(403);
    const saved = await save({ name: 'admin-exec', spec: execSpec }, admin);
    expect(saved.status, saved.text).toBe(201);
  });

  it('refuses any write of playbooks by a viewer', async () => {
    const saved = await save({ name: 'viewer-http', spec: httpSpec }, viewer);
    expect(saved.status).toBe(403);
    expect(await count('viewer-http')).toBe(0);
  });

  describe('the run tables through the data API', () => {
    let runId: string;

    beforeAll(async () => {
      const run = await server.pool.query<{ id: string }>("insert into playbook_runs (playbook_id, status) values ($1, 'completed') returning id", [playbookId]);
      runId = run.rows[0]?.id ?? '';
      await server.pool.query("insert into playbook_run_actions (playbook_run_id, name, status) values ($1, 'count', 'completed')", [runId]);
    });

    it('can still be read', async () => {
      const read = await server.call('GET', `/api/db/playbook_runs?id=eq.${runId}&select=id,status`, viewer);
      expect(read.status).toBe(200);
      expect(read.json).toEqual([{ id: runId, status: 'completed' }]);
    });

    it('refuses POST, PATCH and DELETE even for an admin, saying where runs are made, and changes nothing', async () => {
      const attempts = [
        await server.call('POST', '/api/db/playbook_runs', admin, { playbook_id: playbookId }),
        await server.call('PATCH', `/api/db/playbook_runs?id=eq.${runId}`, admin, { status: 'failed' }),
        await server.call('DELETE', `/api/db/playbook_runs?id=eq.${runId}`, admin),
        await server.call('PATCH', `/api/db/playbook_run_actions?playbook_run_id=eq.${runId}`, admin, { status: 'failed' }),
        await server.call('DELETE', `/api/db/playbook_run_actions?playbook_run_id=eq.${runId}`, admin),
        await server.call('POST', '/api/db/playbook_runs', admin, { playbook_id: playbookId }, { prefer: 'resolution=merge-duplicates' }),
      ];
      for (const attempt of attempts) {
        expect(attempt.status, attempt.text).toBe(405);
        expect(attempt.json).toMatchObject({ code: 'PGRST117', hint: expect.stringContaining('POST /api/playbook/run') });
      }
      const runs = await server.pool.query<{ status: string; n: number }>(
        'select r.status, (select count(*)::int from playbook_run_actions a where a.playbook_run_id = r.id) as n from playbook_runs r where r.playbook_id = $1',
        [playbookId],
      );
      expect(runs.rows).toEqual([{ status: 'completed', n: 1 }]);
    });

    it('refuses a DELETE whose table name is percent-encoded', async () => {
      const attempt = await server.call('DELETE', `/api/db/playbook%5Fruns?id=eq.${runId}`, admin);
      expect(attempt.status, attempt.text).toBe(405);
      const left = await server.pool.query('select 1 from playbook_runs where id = $1', [runId]);
      expect(left.rowCount).toBe(1);
    });
  });

  it('loads live configs, components and checks as targets, and matches them against the selectors', async () => {
    const config = await server.pool.query<{ id: string }>(
      `insert into config_items (type, config_class, name, status, health, tags, labels, config)
       values ('Kubernetes::Pod', 'Kubernetes', 'web-1', 'Running', 'healthy', '{"namespace":"shop","cluster":"prod"}', '{"app":"web"}', '{"spec":{"replicas":2}}')
       returning id`,
    );
    const component = await server.pool.query<{ id: string }>(
      `insert into components (name, type, namespace, status, labels) values ('checkout', 'Service', 'shop', 'warning', '{"team":"pay"}') returning id`,
    );
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, namespace) values ('shop-canary', 'shop') returning id`);
    const check = await server.pool.query<{ id: string }>(
      `insert into checks (canary_id, type, name, status, labels) values ($1, 'http', 'shop-home', 'unhealthy', '{"app":"web"}') returning id`,
      [canary.rows[0]?.id],
    );
    const configTarget = await loadTarget(server.pool, 'config', config.rows[0]?.id ?? '');
    expect(configTarget).toMatchObject({ type: 'config', name: 'web-1', kind: 'Kubernetes::Pod', namespace: 'shop', tags: { cluster: 'prod' }, labels: { app: 'web' }, health: 'healthy' });
    expect(configTarget?.row).toMatchObject({ config_class: 'Kubernetes', namespace: 'shop', config: { spec: { replicas: 2 } } });
    const componentTarget = await loadTarget(server.pool, 'component', component.rows[0]?.id ?? '');
    expect(componentTarget).toMatchObject({ type: 'component', name: 'checkout', kind: 'Service', namespace: 'shop', labels: { team: 'pay' }, status: 'warning' });
    const checkTarget = await loadTarget(server.pool, 'check', check.rows[0]?.id ?? '');
    expect(checkTarget).toMatchObject({ type: 'check', name: 'shop-home', kind: 'http', namespace: 'shop', status: 'unhealthy' });
    expect(checkTarget?.row).toMatchObject({ canary_id: canary.rows[0]?.id, canary_name: 'shop-canary' });
    if (configTarget === null || checkTarget === null) throw new Error('targets not loaded');
    expect(targetMatches({ configs: [{ types: ['Kubernetes::Pod'], tagSelector: 'cluster=prod' }], actions: httpSpec.actions }, configTarget)).toBe(true);
    expect(targetMatches({ checks: [{ namespace: 'shop', labelSelector: 'app=web' }], actions: httpSpec.actions }, checkTarget)).toBe(true);
    await server.pool.query('update config_items set deleted_at = now() where id = $1', [config.rows[0]?.id]);
    expect(await loadTarget(server.pool, 'config', config.rows[0]?.id ?? '')).toBeNull();
    expect(await loadTarget(server.pool, 'component', '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('serves the spec schema to readers, and it checks what the editor types', async () => {
    const reply = await server.call('GET', '/api/schemas/playbook-spec.schema.json', viewer);
    expect(reply.status).toBe(200);
    const validator = new Validator(reply.json as Schema, '2020-12', false);
    expect(validator.validate(httpSpec).valid).toBe(true);
    expect(validator.validate({ actions: [{ name: 'a', gitops: {} }] }).valid).toBe(false);
    const anonymous = await fetch(`${server.url}/api/schemas/playbook-spec.schema.json`);
    expect(anonymous.status).toBe(401);
  });
});
