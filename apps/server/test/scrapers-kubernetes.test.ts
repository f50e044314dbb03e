import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import type { ScrapedItem, ScrapeResult, SourceContext } from '../src/modules/scrapers/types';
import { runKubernetesSource } from '../src/modules/scrapers/sources/kubernetes';
import { runScrape } from '../src/modules/scrapers/run-scrape';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { sampleCluster, startFakeKubeApi, type FakeKubeApi } from './fixtures/fake-kube-api';

function kubeconfig(server: string, user: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'fake', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'scraper', user }],
    contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'scraper' } }],
    'current-context': 'fake',
  });
}

describe('kubernetes scraper source', () => {
  let server: TestServer;
  let api: FakeKubeApi;
  let context: SourceContext;

  const run = (spec: Record<string, unknown>): Promise<ScrapeResult> =>
    runKubernetesSource({ kind: 'kubernetes', index: 0, spec: { clusterName: 'prod', kubeconfig: 'connection://default/fake-kube', ...spec } }, context);

  const byName = (result: ScrapeResult, type: string, name: string): ScrapedItem => {
    const item = result.items.find((entry) => entry.type === type && entry.name === name);
    if (item === undefined) throw new Error(`${type} ${name} was not scraped`);
    return item;
  };

  beforeAll(async () => {
    server = await startTestServer();
    api = await startFakeKubeApi();
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'fake-kube', type: 'kubernetes', url: api.url, password: api.token, insecure_tls: true }, null);
    await createConnection(server.pool, TEST_SECRET_KEY, {
      name: 'fake-kubeconfig',
      type: 'kubernetes',
      certificate: kubeconfig(api.url, { token: api.token }),
    }, null);
    await createConnection(server.pool, TEST_SECRET_KEY, {
      name: 'exec-kubeconfig',
      type: 'kubernetes',
      certificate: kubeconfig(api.url, { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', 'touch /tmp/opsdeck-pwned'] } }),
    }, null);
    context = { scraperId: 'test', pool: server.pool, secretKey: TEST_SECRET_KEY, roots: [], ownDatabaseUrl: null, signal: new AbortController().signal };
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });
  afterEach(() => {
    api.failures.clear();
    api.stalls.clear();
    api.objects = sampleCluster();
    api.requests.length = 0;
  });

  it('scrapes every kind with uid, aliases, tags, yaml content and no managed fields', async () => {
    const result = await run({});
    expect(result.errors).toEqual([]);
    expect(result.complete).toBe(true);
    const types = new Set(result.items.map((item) => item.type));
    for (const kind of ['Cluster', 'Namespace', 'Node', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Pod', 'Service', 'Ingress', 'ConfigMap', 'Job', 'CronJob', 'PersistentVolumeClaim']) {
      expect(types).toContain(`Kubernetes::${kind}`);
    }
    const web = byName(result, 'Kubernetes::Deployment', 'web');
    const stored = api.objects.deployments?.[0]?.metadata as Record<string, unknown>;
    expect(web.externalId).toBe(stored.uid);
    expect(web.aliases).toEqual(['Deployment/shop/web']);
    expect(web.tags).toEqual({ cluster: 'prod', namespace: 'shop' });
    expect(web.labels).toEqual({ app: 'web' });
    expect(web.format).toBe('yaml');
    expect(web.source).toBe('kubernetes/prod');
    expect(web.createdAt).toMatch(/^2026-01-05T10:00:00/);
    const config = web.config as { kind: string; apiVersion: string; metadata: Record<string, unknown>; status: Record<string, unknown> };
    expect(config.kind).toBe('Deployment');
    expect(config.apiVersion).toBe('apps/v1');
    expect(config.metadata).not.toHaveProperty('managedFields');
    expect(config.metadata).not.toHaveProperty('resourceVersion');
    expect(config.status.readyReplicas).toBe(2);
    expect(byName(result, 'Kubernetes::Node', 'node-1').tags).toEqual({ cluster: 'prod' });
  });

  it('derives health and status from conditions, container states and replica counts', async () => {
    const result = await run({});
    expect(byName(result, 'Kubernetes::Pod', 'db-0')).toMatchObject({ health: 'unhealthy', status: 'CrashLoopBackOff', ready: false });
    expect(byName(result, 'Kubernetes::Pod', 'web-7d4b9c-a1')).toMatchObject({ health: 'healthy', status: 'Running', ready: true });
    expect(byName(result, 'Kubernetes::StatefulSet', 'db')).toMatchObject({ health: 'warning', status: '1/2 ready', ready: false });
    expect(byName(result, 'Kubernetes::Deployment', 'web')).toMatchObject({ health: 'healthy', status: '2/2 ready' });
    expect(byName(result, 'Kubernetes::Node', 'node-2')).toMatchObject({ health: 'warning', status: 'MemoryPressure' });
    expect(byName(result, 'Kubernetes::Job', 'nightly-report-29001')).toMatchObject({ health: 'healthy', status: 'Complete' });
    expect(byName(result, 'Kubernetes::PersistentVolumeClaim', 'data-db-0')).toMatchObject({ health: 'healthy', status: 'Bound' });
    expect(byName(result, 'Kubernetes::Namespace', 'shop')).toMatchObject({ health: 'healthy', status: 'Active' });
  });

  it('hangs objects from their owner, their namespace or the cluster', async () => {
    const result = await run({});
    const key = (item: ScrapedItem): { type: string; externalId: string } => ({ type: item.type, externalId: item.externalId });
    const replicaSet = byName(result, 'Kubernetes::ReplicaSet', 'web-7d4b9c');
    expect(replicaSet.parent).toEqual(key(byName(result, 'Kubernetes::Deployment', 'web')));
    expect(byName(result, 'Kubernetes::Pod', 'web-7d4b9c-a1').parent).toEqual(key(replicaSet));
    expect(byName(result, 'Kubernetes::Service', 'web').parent).toEqual(key(byName(result, 'Kubernetes::Namespace', 'shop')));
    const cluster = byName(result, 'Kubernetes::Cluster', 'prod');
    expect(byName(result, 'Kubernetes::Namespace', 'shop').parent).toEqual(key(cluster));
    expect(byName(result, 'Kubernetes::Node', 'node-1').parent).toEqual(key(cluster));
  });

  it('links services to the pods they select, pods to their nodes and ingresses to their services', async () => {
    const result = await run({});
    const named = new Map(result.items.map((item) => [item.externalId, `${item.type.replace('Kubernetes::', '')}/${item.name}`]));
    const links = result.relationships.map((link) => `${'lookup' in link.from ? 'lookup' : named.get(link.from.externalId)} ${link.relation} ${named.get(link.to.externalId)}`).sort();
    expect(links).toEqual([
      'Ingress/web routes to Service/web',
      'Pod/db-0 runs on Node/node-1',
      'Pod/web-7d4b9c-a1 runs on Node/node-1',
      'Pod/web-7d4b9c-b2 runs on Node/node-2',
      'Service/web selects Pod/web-7d4b9c-a1',
      'Service/web selects Pod/web-7d4b9c-b2',
    ]);
  });

  it('links each object to the catalog configs its relationships look up by label, value and CEL, in this scraper or another', async () => {
    const flux = await server.pool.query<{ id: string }>(
      `insert into config_items (type, config_class, name, tags) values ('Kubernetes::Kustomization', 'Kubernetes', 'apps', '{"cluster": "prod", "namespace": "flux-system"}') returning id`,
    );
    const deployment = api.objects.deployments?.[0];
    const metadata = deployment?.metadata as Record<string, unknown>;
    metadata.labels = { ...(metadata.labels as object), 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };
    const spec = {
      kubernetes: [
        {
          clusterName: 'prod',
          kubeconfig: 'connection://default/fake-kube',
          relationships: [
            { kind: { value: 'Kustomization' }, name: { label: 'kustomize.toolkit.fluxcd.io/name' }, namespace: { label: 'kustomize.toolkit.fluxcd.io/namespace' } },
            { kind: { value: 'ConfigMap' }, name: { expr: "metadata.name == 'web' && has(spec.replicas) ? 'web-settings' : ''" } },
          ],
        },
      ],
    };
    const admin = await server.cookieFor('admin');
    const saved = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'looked-up', spec }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    const id = (saved.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
    const outcome = await runScrape({ pool: server.pool, secretKey: TEST_SECRET_KEY, roots: [], ownDatabaseUrl: null }, { id, name: 'looked-up', spec, agent_id: null });
    expect(outcome.errors).toEqual([]);
    const links = await server.pool.query<{ parent: string; child: string }>(
      `select p.type || '/' || p.name as parent, c.type || '/' || c.name as child
         from config_relationships r join config_items p on p.id = r.config_id join config_items c on c.id = r.related_id
        where r.selector_id = $1 and r.deleted_at is null and (r.config_id = $2 or p.type = 'Kubernetes::ConfigMap') order by 1`,
      [`scraper:${id}`, flux.rows[0]?.id],
    );
    expect(links.rows).toEqual([
      { parent: 'Kubernetes::ConfigMap/web-settings', child: 'Kubernetes::Deployment/web' },
      { parent: 'Kubernetes::Kustomization/apps', child: 'Kubernetes::Deployment/web' },
    ]);
  });

  it('records kubernetes events as changes of the object they are about', async () => {
    const result = await run({});
    const crashing = byName(result, 'Kubernetes::Pod', 'db-0');
    const backOff = result.changes.find((change) => change.changeType === 'BackOff');
    expect(backOff).toMatchObject({
      item: { type: 'Kubernetes::Pod', externalId: crashing.externalId },
      severity: 'warning',
      summary: 'Back-off restarting failed container postgres',
      createdAt: expect.stringMatching(/^2026-01-05T10:15:00/) as unknown,
      source: 'kubernetes/prod',
    });
    const eventUid = (api.objects.events?.[0]?.metadata as Record<string, unknown>).uid;
    expect(backOff?.externalChangeId).toBe(`${String(eventUid)}/7`);
    expect(result.changes.find((change) => change.changeType === 'Scheduled')?.severity).toBe('info');
  });

  it("honours config-db's annotations: an ignored object is left out, and an object's events of a listed type or severity are dropped", async () => {
    const annotate = (plural: string, name: string, annotations: Record<string, string>): void => {
      const object = api.objects[plural]?.find((entry) => (entry.metadata as Record<string, unknown>).name === name);
      if (object === undefined) throw new Error(`no ${plural} ${name}`);
      const metadata = object.metadata as Record<string, unknown>;
      metadata.annotations = { ...(metadata.annotations as Record<string, string> | undefined), ...annotations };
    };
    annotate('configmaps', 'web-settings', { 'config-db.flanksource.com/ignore': 'true' });
    annotate('pods', 'db-0', { 'config-db.flanksource.com/ignore-changes': 'Back*,diff' });
    annotate('pods', 'web-7d4b9c-a1', { 'config-db.flanksource.com/ignore-change-severity': 'info' });
    annotate('services', 'web', { 'config-db.flanksource.com/ignore': 'false' });
    const result = await run({});
    expect(result.items.some((item) => item.type === 'Kubernetes::ConfigMap')).toBe(false);
    expect(result.items.some((item) => item.type === 'Kubernetes::Service' && item.name === 'web')).toBe(true);
    expect(result.changes.map((change) => change.changeType)).toEqual([]);
    // Kept as labels, as config-db keeps them, so the ingest drops the object's diffs too.
    expect(byName(result, 'Kubernetes::Pod', 'db-0').labels['config-db.flanksource.com/ignore-changes']).toBe('Back*,diff');
  });

  it('pages through lists 500 objects at a time with the continue token', async () => {
    const template = sampleCluster().configmaps?.[0] as Record<string, unknown>;
    api.objects.configmaps = Array.from({ length: 1203 }, (_, index) => ({
      ...template,
      metadata: { ...(template.metadata as Record<string, unknown>), name: `settings-${index}`, uid: `cm-${index}` },
    }));
    const result = await run({});
    expect(result.items.filter((item) => item.type === 'Kubernetes::ConfigMap')).toHaveLength(1203);
    const pages = api.requests.filter((request) => request.startsWith('/api/v1/configmaps'));
    expect(pages).toHaveLength(3);
    expect(pages.every((request) => request.includes('limit=500'))).toBe(true);
    expect(pages.slice(1).every((request) => request.includes('continue='))).toBe(true);
  });

  it('keeps the other kinds when one answers 403 and marks the run incomplete', async () => {
    api.failures.set('pods', 403);
    api.failures.set('services', 500);
    const result = await run({});
    expect(result.complete).toBe(false);
    expect(result.errors.map((error) => error.where).sort()).toEqual(['kubernetes[0] pods', 'kubernetes[0] services']);
    expect(result.errors.find((error) => error.where === 'kubernetes[0] pods')?.message).toMatch(/^HTTP 403: pods is forbidden/);
    expect(result.items.some((item) => item.type === 'Kubernetes::Pod')).toBe(false);
    expect(result.items.some((item) => item.type === 'Kubernetes::Deployment')).toBe(true);
  });

  it('never requests secrets', async () => {
    await run({});
    expect(api.requests.length).toBeGreaterThan(10);
    expect(api.requests.filter((request) => request.includes('secrets'))).toEqual([]);
  });

  it('limits namespaced lists to the namespace given and drops excluded objects', async () => {
    const result = await run({ namespace: 'shop', exclusions: { name: ['web-7d4b9c-*'], kind: ['ConfigMap'], labels: { app: 'd?' } } });
    expect(result.errors).toEqual([]);
    expect(api.requests.some((request) => request.startsWith('/api/v1/namespaces/shop/pods?'))).toBe(true);
    expect(result.items.some((item) => item.name === 'log-agent')).toBe(false);
    expect(result.items.some((item) => item.type === 'Kubernetes::Namespace' && item.name === 'kube-system')).toBe(false);
    expect(result.items.some((item) => item.name.startsWith('web-7d4b9c-'))).toBe(false);
    expect(result.items.some((item) => item.type === 'Kubernetes::ConfigMap')).toBe(false);
    expect(result.items.some((item) => item.name === 'db' || item.name === 'db-0')).toBe(false);
    expect(result.items.some((item) => item.type === 'Kubernetes::Deployment' && item.name === 'web')).toBe(true);
  });

  it('reads a kubeconfig stored in the connection', async () => {
    const result = await run({ kubeconfig: 'connection://default/fake-kubeconfig' });
    expect(result.errors).toEqual([]);
    expect(result.items.length).toBeGreaterThan(10);
  });

  it('refuses a kubeconfig that would run a program as the server', async () => {
    const result = await run({ kubeconfig: 'connection://default/exec-kubeconfig' });
    expect(result.complete).toBe(false);
    expect(result.items).toEqual([]);
    expect(result.errors).toEqual([{ where: 'kubernetes[0]', message: expect.stringContaining("uses 'exec'") as unknown }]);
    expect(api.requests).toEqual([]);
  });

  it('refuses kubeconfigs that read certificates or tokens from files on the server', async () => {
    for (const user of [{ tokenFile: '/etc/shadow' }, { 'client-certificate': '/root/.kube/cert.pem', 'client-key': '/root/.kube/key.pem' }, { 'auth-provider': { name: 'gcp' } }]) {
      const result = await runKubernetesSource(
        { kind: 'kubernetes', index: 0, spec: { clusterName: 'prod', kubeconfig: { value: kubeconfig(api.url, user) } } },
        context,
      );
      expect(result.complete).toBe(false);
      expect(result.errors[0]?.message).toMatch(/refused/);
    }
    expect(api.requests).toEqual([]);
  });

  it('reports an unreachable API once, without throwing and without items', async () => {
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'nowhere', type: 'kubernetes', url: 'http://127.0.0.1:9', password: 'x', insecure_tls: true }, null);
    const result = await run({ kubeconfig: 'connection://default/nowhere' });
    expect(result.complete).toBe(false);
    expect(result.items).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message).toMatch(/cannot reach the Kubernetes API at http:\/\/127\.0\.0\.1:9/);
  });

  it('gives an object whose resource version moved but whose content did not the same content', async () => {
    const first = await run({});
    for (const object of Object.values(api.objects).flat()) {
      const metadata = object.metadata as Record<string, unknown>;
      metadata.resourceVersion = '999999';
      metadata.generation = 7;
    }
    const second = await run({});
    expect(second.items.map((item) => item.config)).toEqual(first.items.map((item) => item.config));
  });

  it('stops waiting for a stalled API server when the run is stopped', async () => {
    api.stalls.add('pods');
    const controller = new AbortController();
    const running = runKubernetesSource({ kind: 'kubernetes', index: 0, spec: { clusterName: 'prod', kubeconfig: 'connection://default/fake-kube' } }, { ...context, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const result = await running;
    expect(result.complete).toBe(false);
    expect(result.errors).toEqual([{ where: 'kubernetes[0]', message: expect.stringContaining('the run was stopped') as unknown }]);
  });

  it('reports refused credentials once instead of once per kind', async () => {
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'wrong-token', type: 'kubernetes', url: api.url, password: 'not-the-token', insecure_tls: true }, null);
    const result = await run({ kubeconfig: 'connection://default/wrong-token' });
    expect(result.complete).toBe(false);
    expect(result.errors).toEqual([{ where: 'kubernetes[0]', message: expect.stringContaining('refused the credentials (HTTP 401') as unknown }]);
    expect(JSON.stringify(result.errors)).not.toContain('not-the-token');
  });

  it('requires a cluster name', async () => {
    const result = await runKubernetesSource({ kind: 'kubernetes', index: 2, spec: { kubeconfig: 'connection://default/fake-kube' } }, context);
    expect(result).toMatchObject({ complete: false, errors: [{ where: 'kubernetes[2]', message: 'clusterName is required' }] });
  });
});
