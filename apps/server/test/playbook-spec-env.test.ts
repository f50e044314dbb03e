import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { PlaybookWorker } from '../src/modules/playbooks/playbook-worker';
import { hashToken, newSessionToken, SESSION_COOKIE, SESSION_TTL_MS } from '../src/auth/shared/session-token';
import { runStatus, savePlaybook } from './playbook-support';
import { startTestServer, type TestServer } from './harness';

const IS_ROOT = process.getuid?.() === 0;
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** A loopback listener that keeps every body it was sent. */
async function startListener(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The three-step shape of Mission Control's catalog_traversal fixture: GitRepository → Kustomization → Deployment. */
interface Graph {
  repo: string;
  kustomization: string;
  deployment: string;
}

const GIT_URL = '{{ (index (catalog_traverse .config.id "Kubernetes::GitRepository") 0).Config | json | jq ".spec.url" }}';
const GIT_BRANCH = '{{ (index (catalog_traverse .config.id "Kubernetes::GitRepository" "incoming") 0).Config | json | jq ".spec.ref.branch" }}';

describe('playbook spec.env and catalog_traverse', () => {
  let server: TestServer;
  let worker: PlaybookWorker;
  let admin: string;
  let listener: Awaited<ReturnType<typeof startListener>>;
  const previousRole = process.env.OPSDECK_ROLE;

  const save = (spec: Record<string, unknown>): Promise<string> => savePlaybook(server, admin, spec, 'env');

  const statusOf = (id: string): Promise<string> => runStatus(server, id);

  async function request(playbookId: string, params: Record<string, string>, target: Record<string, string>, cookie = admin): Promise<string> {
    const reply = await server.call('POST', '/api/playbook/run', cookie, { id: playbookId, params, ...target });
    expect(reply.status, reply.text).toBe(201);
    return String(reply.json.run_id);
  }

  /** Lets the worker advance the run until it has finished. */
  async function finished(id: string): Promise<PlaybookRun & { error?: string | null }> {
    const deadline = Date.now() + 30_000;
    while (!FINAL.has(await statusOf(id))) {
      if (Date.now() > deadline) throw new Error(`run ${id} is still ${await statusOf(id)}`);
      await worker.runDue();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const done = await server.call('GET', `/api/playbook/run/${id}`, admin);
    return done.json as unknown as PlaybookRun & { error?: string | null };
  }

  async function run(playbookId: string, params: Record<string, string>, target: Record<string, string> = {}): Promise<PlaybookRun & { error?: string | null }> {
    return finished(await request(playbookId, params, target));
  }

  async function item(type: string, name: string, config: unknown): Promise<string> {
    const inserted = await server.pool.query<{ id: string }>(
      `insert into config_items (type, config_class, name, config) values ($1, $2, $3, $4) returning id`,
      [type, type.split('::')[1] ?? type, name, JSON.stringify(config)],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('no config id');
    return id;
  }

  async function relate(from: string, to: string, relation: string): Promise<void> {
    await server.pool.query(`insert into config_relationships (config_id, related_id, relation) values ($1, $2, $3)`, [from, to, relation]);
  }

  /** A fresh graph, with the repository's name given (the attack test names it). */
  async function graph(repoName = `flux-${randomBytes(3).toString('hex')}`): Promise<Graph> {
    const suffix = randomBytes(3).toString('hex');
    const repo = await item('Kubernetes::GitRepository', repoName, { spec: { url: `https://git.example/${suffix}.git`, ref: { branch: `release-${suffix}` } } });
    const kustomization = await item('Kubernetes::Kustomization', `apps-${suffix}`, { spec: { path: `./clusters/${suffix}` } });
    const deployment = await item('Kubernetes::Deployment', `web-${suffix}`, { spec: { replicas: 2 } });
    await relate(repo, kustomization, 'GitRepositoryKustomization');
    await relate(kustomization, deployment, 'KustomizationDeployment');
    return { repo, kustomization, deployment };
  }

  /** A person of their own with the editor role (runs playbooks, reads the catalog), and their session cookie. */
  async function editorOfTheirOwn(): Promise<{ id: string; cookie: string }> {
    const email = `env-editor-${randomBytes(4).toString('hex')}@opsdeck.local`;
    const person = await server.pool.query<{ id: string }>(`insert into people (name, email) values ('Env Editor', $1) returning id`, [email]);
    const id = person.rows[0]?.id ?? '';
    await server.pool.query(`insert into person_roles (person_id, role) values ($1, 'editor')`, [id]);
    await server.pool.query(`insert into identities (id) values ($1)`, [id]);
    const token = newSessionToken();
    await server.pool.query(`insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + make_interval(secs => $3::double precision / 1000))`, [
      hashToken(token),
      id,
      SESSION_TTL_MS,
    ]);
    return { id, cookie: `${SESSION_COOKIE}=${token}` };
  }

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 5000, onError: (error) => console.error(error) });
    admin = await server.cookieFor('admin');
    listener = await startListener();
  });
  afterAll(async () => {
    if (previousRole === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_ROLE');
    else process.env.OPSDECK_ROLE = previousRole;
    await listener.close();
    await server.close();
  });

  it("renders spec.env once per run from the target and its related items, and an http body reads it as .env", async () => {
    const { kustomization } = await graph();
    const playbook = await save({
      configs: [{ types: ['Kubernetes::Kustomization'] }],
      env: [
        { name: 'path', value: '{{ .config.config | jq ".spec.path" }}' },
        { name: 'git_url', value: GIT_URL },
        { name: 'git_branch', value: GIT_BRANCH },
      ],
      actions: [{ name: 'tell', http: { url: `${listener.url}/hook`, method: 'POST', headers: [{ name: 'Content-Type', value: 'application/json' }], body: '{"where": "{{ .env.git_url }}@{{ .env.git_branch }}/{{ .env.path }}"}' } }],
    });
    const before = listener.bodies.length;
    const done = await run(playbook, {}, { config_id: kustomization });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const repo = await server.pool.query<{ config: { spec: { url: string; ref: { branch: string } } } }>(
      `select r.config from config_items r join config_relationships l on l.config_id = r.id where l.related_id = $1`,
      [kustomization],
    );
    const spec = repo.rows[0]?.config.spec;
    const target = await server.pool.query<{ config: { spec: { path: string } } }>('select config from config_items where id = $1', [kustomization]);
    expect(listener.bodies.slice(before)).toEqual([`{"where": "${spec?.url ?? ''}@${spec?.ref.branch ?? ''}/${target.rows[0]?.config.spec.path ?? ''}"}`]);
  });

  it('reads a config parameter as the chosen item in templates and conditions, as Mission Control does, while the run keeps its id', async () => {
    const { kustomization } = await graph();
    const playbook = await save({
      parameters: [{ name: 'kustomization', label: 'Kustomization', type: 'config', properties: { filter: [{ types: ['Kubernetes::Kustomization'] }] } }],
      actions: [
        {
          name: 'tell',
          if: 'params.kustomization.type == "Kubernetes::Kustomization"',
          http: { url: `${listener.url}/param`, method: 'POST', body: '{{ .params.kustomization.id }} {{ .params.kustomization.name }} {{ .params.kustomization.config | json | jq ".spec.path" }}' },
        },
        { name: 'never', if: 'params.kustomization.type == "Kubernetes::Pod"', http: { url: `${listener.url}/never`, method: 'POST', body: 'no' } },
      ],
    });
    const before = listener.bodies.length;
    const done = await run(playbook, { kustomization });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const name = await server.pool.query<{ name: string; path: string }>(`select name, config->'spec'->>'path' as path from config_items where id = $1`, [kustomization]);
    expect(listener.bodies.slice(before)).toEqual([`${kustomization} ${name.rows[0]?.name ?? ''} ${name.rows[0]?.path ?? ''}`]);
    expect(done.actions.map((action) => action.status)).toEqual(['completed', 'skipped']);
    expect(done.parameters).toEqual({ kustomization });
  });

  it('fails the run naming the parameter when the item it chose was deleted before the run began, and runs no action', async () => {
    const { kustomization } = await graph();
    const playbook = await save({
      parameters: [{ name: 'kustomization', type: 'config' }],
      actions: [{ name: 'tell', http: { url: `${listener.url}/gone`, method: 'POST', body: '{{ .params.kustomization.name }}' } }],
    });
    const before = listener.bodies.length;
    const id = await request(playbook, { kustomization }, {});
    await server.pool.query('update config_items set deleted_at = now() where id = $1', [kustomization]);
    const done = await finished(id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe("The catalog item chosen for the parameter 'kustomization' no longer exists");
    expect(done.actions).toEqual([]);
    expect(listener.bodies.length).toBe(before);
  });

  it('finds a related item of a type in both directions, and nothing for a type it is not related to', async () => {
    const { repo, kustomization, deployment } = await graph();
    const playbook = await save({
      configs: [{ types: ['Kubernetes::Kustomization'] }],
      env: [
        { name: 'up', value: '{{ range catalog_traverse .config.id "Kubernetes::GitRepository" "incoming" }}{{ .ID }}{{ end }}' },
        { name: 'down', value: '{{ range catalog_traverse .config.id "Kubernetes::Deployment" "outgoing" }}{{ .ID }}:{{ .Type }}{{ end }}' },
        { name: 'by_default', value: '{{ len (catalog_traverse .config.id "Kubernetes::Deployment") }}' },
        { name: 'unrelated', value: '{{ len (catalog_traverse .config.id "Kubernetes::Pod" "outgoing") }}' },
        { name: 'path', value: '{{ range catalog_traverse (index (catalog_traverse .config.id "Kubernetes::Deployment" "outgoing") 0).ID "Kubernetes::Kustomization/Kubernetes::GitRepository" }}{{ .Name }}{{ end }}' },
      ],
      actions: [{ name: 'tell', http: { url: `${listener.url}/dirs`, method: 'POST', body: '{{ .env.up }} {{ .env.down }} {{ .env.by_default }} {{ .env.unrelated }} {{ .env.path }}' } }],
    });
    const before = listener.bodies.length;
    const done = await run(playbook, {}, { config_id: kustomization });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const repoName = await server.pool.query<{ name: string }>('select name from config_items where id = $1', [repo]);
    // by_default is 0: duty walks incoming when no direction is given, and the deployment is downstream.
    expect(listener.bodies.slice(before)).toEqual([`${repo} ${deployment}:Kubernetes::Deployment 0 0 ${repoName.rows[0]?.name ?? ''}`]);
  });

  it('never answers deleted items', async () => {
    const { repo, kustomization } = await graph();
    await server.pool.query('update config_items set deleted_at = now() where id = $1', [repo]);
    const playbook = await save({
      configs: [{ types: ['Kubernetes::Kustomization'] }],
      env: [{ name: 'repos', value: '{{ len (catalog_traverse .config.id "Kubernetes::GitRepository") }}' }],
      actions: [{ name: 'tell', http: { url: `${listener.url}/deleted`, method: 'POST', body: 'repos={{ .env.repos }}' } }],
    });
    const before = listener.bodies.length;
    const done = await run(playbook, {}, { config_id: kustomization });
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(listener.bodies.slice(before)).toEqual(['repos=0']);
  });

  it('answers a requester who can no longer read the catalog nothing', async () => {
    const { kustomization } = await graph();
    const editor = await editorOfTheirOwn();
    const playbook = await save({
      configs: [{ types: ['Kubernetes::Kustomization'] }],
      env: [{ name: 'repos', value: '{{ len (catalog_traverse .config.id "Kubernetes::GitRepository") }}' }],
      actions: [{ name: 'tell', http: { url: `${listener.url}/access`, method: 'POST', body: 'repos={{ .env.repos }}' } }],
    });
    const live = await finished(await request(playbook, {}, { config_id: kustomization }, editor.cookie));
    expect(live.status, JSON.stringify(live)).toBe('completed');
    expect(listener.bodies.at(-1)).toBe('repos=1');
    const runId = await request(playbook, {}, { config_id: kustomization }, editor.cookie);
    // Removed after asking and before the run starts: every role reads the catalog, so no live person is refused it.
    await server.pool.query('update people set deleted_at = now() where id = $1', [editor.id]);
    const before = listener.bodies.length;
    const done = await finished(runId);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(listener.bodies.slice(before)).toEqual(['repos=0']);
  });

  it('fails the run naming the env entry when its value does not render, and runs no action', async () => {
    const { kustomization } = await graph();
    const playbook = await save({
      configs: [{ types: ['Kubernetes::Kustomization'] }],
      env: [{ name: 'git_url', value: '{{ (index (catalog_traverse .config.id "Kubernetes::Pod") 0).Config }}' }],
      actions: [{ name: 'tell', http: { url: `${listener.url}/never`, method: 'POST', body: '{{ .env.git_url }}' } }],
    });
    const before = listener.bodies.length;
    const done = await run(playbook, {}, { config_id: kustomization });
    expect(done.status).toBe('failed');
    expect(done.actions).toEqual([]);
    const stored = await server.pool.query<{ error: string | null }>('select error from playbook_runs where playbook_id = $1', [playbook]);
    expect(stored.rows[0]?.error).toMatch(/^The run's env could not be rendered: The template of spec\.env\.git_url could not be rendered: .*index/);
    expect(listener.bodies.length).toBe(before);
  });

  it('refuses spec.env valueFrom at save, naming spec.env[0].valueFrom', async () => {
    const reply = await server.call('POST', '/api/db/playbooks', admin, {
      name: `env-${randomBytes(4).toString('hex')}`,
      spec: { env: [{ name: 'token', valueFrom: { secretKeyRef: { name: 'site', key: 'jwt' } } }], actions: [{ name: 'a', http: { url: `${listener.url}/x` } }] },
    });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'spec.env[0].valueFrom' });
  });

  describe.runIf(IS_ROOT)('exec', () => {
    it('hands spec.env values to a script as placed values', async () => {
      const { kustomization } = await graph();
      const playbook = await save({
        configs: [{ types: ['Kubernetes::Kustomization'] }],
        env: [
          { name: 'git_url', value: GIT_URL },
          { name: 'git_branch', value: GIT_BRANCH },
        ],
        actions: [{ name: 'echo', exec: { script: 'echo "$(.config.name) is in $(.env.git_url)@$(.env.git_branch)"' } }],
      });
      const done = await run(playbook, {}, { config_id: kustomization });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toMatch(/^apps-[0-9a-f]{6} is in https:\/\/git\.example\/[0-9a-f]{6}\.git@release-[0-9a-f]{6}\n$/);
    });

    it('keeps a related item named x"; touch … # one argument when it flows through spec.env into a script, and runs nothing it holds', async () => {
      const marker = path.join(os.tmpdir(), `opsdeck-pwned-${randomBytes(6).toString('hex')}`);
      const attack = `x"; touch ${marker} #`;
      const { kustomization } = await graph(attack);
      const playbook = await save({
        configs: [{ types: ['Kubernetes::Kustomization'] }],
        env: [{ name: 'repo', value: '{{ (index (catalog_traverse .config.id "Kubernetes::GitRepository") 0).Name }}' }],
        actions: [{ name: 'print', exec: { script: `printf '<%s>' {{ .env.repo }} "{{ .env.repo }}" '{{ .env.repo }}' $(.env.repo) "$(.env.repo)"` } }],
      });
      const done = await run(playbook, {}, { config_id: kustomization });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toBe(`<${attack}>`.repeat(5));
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
    });

    it('runs the env values as the catalog_traversal fixture writes them, with $[[ ]]', async () => {
      const { kustomization } = await graph();
      const playbook = await save({
        configs: [{ types: ['Kubernetes::Kustomization'] }],
        env: [
          { name: 'path', value: '# gotemplate: left-delim=$[[ right-delim=]]\n$[[ .config.config | jq ".spec.path" ]]\n' },
          { name: 'git_url', value: '# gotemplate: left-delim=$[[ right-delim=]]\n$[[ (index (catalog_traverse .config.id  "Kubernetes::GitRepository") 0).Config | json | jq ".spec.url"  ]]\n' },
        ],
        actions: [{ name: 'echo', exec: { script: 'echo "$(.env.git_url)/$(.env.path)"' } }],
      });
      const done = await run(playbook, {}, { config_id: kustomization });
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toMatch(/^https:\/\/git\.example\/[0-9a-f]{6}\.git\/\.\/clusters\/[0-9a-f]{6}\n$/);
    });

    it('runs Mission Control\'s catalog_traversal playbook unchanged: its config parameter is the chosen item, read through $[[ ]] and $( )', async () => {
      const { kustomization } = await graph();
      const playbook = await save({
        category: 'Test',
        icon: 'namespace',
        title: 'Find GitSource',
        parameters: [
          {
            name: 'kustomization',
            label: 'Kustomization',
            description: 'Which kustomization to add the new namespace into',
            required: true,
            type: 'config',
            properties: { filter: [{ types: ['Kubernetes::Kustomization'] }] },
          },
        ],
        env: [
          { name: 'path', value: '# gotemplate: left-delim=$[[ right-delim=]]\n$[[ .params.kustomization.config | json |  jq ".spec.path" ]]\n' },
          { name: 'git_url', value: '# gotemplate: left-delim=$[[ right-delim=]]\n$[[ (index (catalog_traverse .params.kustomization.id  "Kubernetes::GitRepository") 0).Config | json | jq ".spec.url"  ]]\n' },
          { name: 'git_branch', value: '# gotemplate: left-delim=$[[ right-delim=]]\n$[[ (index (catalog_traverse .params.kustomization.id  "Kubernetes::GitRepository" "incoming") 0).Config | json | jq ".spec.ref.branch" ]]\n' },
        ],
        actions: [{ name: 'echo', exec: { script: 'echo "$(.params.kustomization.name) is in $(.env.git_url)@$(.env.git_branch)/$(.env.path)"\n' } }],
      });
      const done = await run(playbook, { kustomization });
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toMatch(/^apps-[0-9a-f]{6} is in https:\/\/git\.example\/[0-9a-f]{6}\.git@release-[0-9a-f]{6}\/\.\/clusters\/[0-9a-f]{6}\n$/);
    });

    it('keeps a chosen item named x"; touch … # one argument when a script reads its name through the parameter', async () => {
      const marker = path.join(os.tmpdir(), `opsdeck-pwned-${randomBytes(6).toString('hex')}`);
      const attack = `x"; touch ${marker} #`;
      const chosen = await item('Kubernetes::Kustomization', attack, { spec: { path: '.' } });
      const playbook = await save({
        parameters: [{ name: 'k', type: 'config' }],
        actions: [{ name: 'print', exec: { script: `printf '<%s>' {{ .params.k.name }} "{{ .params.k.name }}" $(.params.k.name) "$(.params.k.name)"` } }],
      });
      const done = await run(playbook, { k: chosen });
      expect(done.status, JSON.stringify(done.actions)).toBe('completed');
      expect(done.actions[0]?.result?.stdout).toBe(`<${attack}>`.repeat(4));
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
    });
  });
});
