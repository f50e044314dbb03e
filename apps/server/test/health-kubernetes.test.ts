import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { startFakeKubeApi, type FakeKubeApi } from './fixtures/fake-kube-api';
import { runCanaryNow, type LatestStatus } from './fixtures/run-canary';

/**
 * canary-checker's `kubernetes` check (issue #32) against a fake Kubernetes API: resources of a kind in the namespaces
 * selected, judged healthy and ready as the catalog judges them, with the expressions reading `results`.
 */
const PLANTED = `/tmp/opsdeck-kube-check-${process.pid}`;

describe('kubernetes checks', () => {
  let server: TestServer;
  let api: FakeKubeApi;
  let admin: string;
  let editor: string;
  let count = 0;

  beforeAll(async () => {
    server = await startTestServer();
    api = await startFakeKubeApi();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'cluster', namespace: 'ops', type: 'kubernetes', url: api.url, password: api.token, insecure_tls: true }, null);
    const planted = {
      apiVersion: 'v1',
      clusters: [{ name: 'c', cluster: { server: api.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', `touch ${PLANTED}`] } } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    };
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'planted', namespace: 'ops', type: 'kubernetes', certificate: JSON.stringify(planted) }, null);
    api.objects.certificates = [
      { metadata: { name: 'shop-tls', namespace: 'shop', uid: 'c1' }, status: { conditions: [{ type: 'Ready', status: 'True', message: 'Certificate is up to date' }] } },
      { metadata: { name: 'old-tls', namespace: 'shop', uid: 'c2' }, status: { conditions: [{ type: 'Ready', status: 'False', message: 'Issuer not found' }] } },
    ];
  });
  afterAll(async () => {
    await api.close();
    await server.close();
  });

  async function save(check: Record<string, unknown>, cookie = admin): Promise<{ status: number; json: Record<string, unknown> }> {
    count += 1;
    const reply = await server.call('POST', '/api/canary/canaries', cookie, {
      name: `kube-${count}`,
      namespace: 'ops',
      spec: { schedule: '@every 5m', kubernetes: [{ name: 'resources', kubeconfig: 'connection://ops/cluster', ...check }] },
    });
    return { status: reply.status, json: reply.json };
  }

  async function run(check: Record<string, unknown>): Promise<LatestStatus> {
    const saved = await save(check);
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    return runCanaryNow(server, String(saved.json.id));
  }

  it('passes when every selected pod is ready, reading the namespace and name globs as canary-checker does', async () => {
    const result = await run({ kind: 'Pod', ready: true, namespaceSelector: { name: 'sh*,!kube-*' }, resource: { name: 'web-*' } });
    expect(result.error).toBeNull();
    expect(result.status).toBe(true);
    expect(result.message).toBe('2 Pod resources');
  });

  it('fails naming each pod that is not ready, and each that is not healthy', async () => {
    const ready = await run({ kind: 'Pod', ready: true, namespaceSelector: { name: 'shop' } });
    expect(ready.status).toBe(false);
    expect(ready.error).toContain('Pod/shop/db-0 is not ready');
    expect(ready.error).not.toContain('web-7d4b9c-a1');
    const healthy = await run({ kind: 'StatefulSet', healthy: true, namespaceSelector: { name: 'shop' } });
    expect(healthy.status).toBe(false);
    expect(healthy.error).toContain('StatefulSet/shop/db is not healthy');
  });

  it('leaves ignored names out, and lists in the label selector given', async () => {
    const result = await run({ kind: 'Pod', ready: true, namespaceSelector: { name: 'shop' }, ignore: ['db-*'] });
    expect(result.status).toBe(true);
    const selected = await run({ kind: 'Pod', namespaceSelector: { name: 'shop' }, resource: { labelSelector: 'app=web' } });
    expect(selected.status).toBe(true);
    expect(api.requests.some((request) => request.includes('labelSelector=app%3Dweb'))).toBe(true);
  });

  it("judges results with test and display expressions, k8s.isHealthy reading each resource's health", async () => {
    const result = await run({
      kind: 'Pod',
      namespaceSelector: { name: 'shop' },
      test: { expr: 'dyn(results).all(x, k8s.isHealthy(x))' },
      display: { expr: "dyn(results).map(i, i.Object).filter(i, !k8s.isHealthy(i)).map(i, '%s/%s -> %s'.format([i.metadata.namespace, i.metadata.name, k8s.getHealth(i).message])).join(', ')" },
    });
    expect(result.status).toBe(false);
    expect(result.message).toBe('shop/db-0 -> CrashLoopBackOff');
  });

  it('finds a custom resource kind through API discovery and passes its objects to the test', async () => {
    const result = await run({
      kind: 'Certificate',
      namespaceSelector: { name: 'shop' },
      test: { expr: 'dyn(results).map(i, i.Object).filter(i, i.status.conditions[0].status != "True").size() == 0' },
      display: { expr: 'dyn(results).map(i, i.Object).filter(i, i.status.conditions[0].status != "True").map(i, i.metadata.name).join(",")' },
    });
    expect(result.status).toBe(false);
    expect(result.message).toBe('old-tls');
    expect(api.requests).toContain('/apis');
    expect(api.requests.some((request) => request.startsWith('/apis/cert-manager.io/v1/namespaces/shop/certificates'))).toBe(true);
  });

  it('fails when nothing matches and no test judges the empty list, and names a kind the API does not serve', async () => {
    const none = await run({ kind: 'Pod', namespaceSelector: { name: 'shop' }, resource: { name: 'nothing-*' } });
    expect(none.status).toBe(false);
    expect(none.error).toBe('no Pod resources found');
    const unknown = await run({ kind: 'Widget', namespaceSelector: { name: 'shop' } });
    expect(unknown.status).toBe(false);
    expect(unknown.error).toBe('the Kubernetes API serves no kind Widget');
  });

  it('fails by name when the connection is missing, and never lists without one outside a cluster', async () => {
    const missing = await run({ kind: 'Pod', kubeconfig: 'connection://ops/gone' });
    expect(missing.status).toBe(false);
    expect(missing.error).toMatch(/gone/);
    const saved = await save({ kind: 'Pod', kubeconfig: undefined });
    const outside = await runCanaryNow(server, String(saved.json.id));
    expect(outside.status).toBe(false);
    expect(outside.error).toContain('no kubeconfig');
  });

  it('never runs the program of a kubeconfig that names one: the check fails and the file it would write is absent', async () => {
    const result = await run({ kind: 'Pod', kubeconfig: 'connection://ops/planted' });
    expect(result.status).toBe(false);
    expect(result.error).toContain("uses 'exec'");
    expect(existsSync(PLANTED)).toBe(false);
  });

  it('refuses at save a check that would list Secrets, an inline kubeconfig, a kubeconfig file or a valueFrom', async () => {
    for (const [check, field] of [
      [{ kind: 'Secret' }, 'kind'],
      [{ kind: 'Pod', kubeconfig: { value: 'apiVersion: v1' } }, 'kubeconfig'],
      [{ kind: 'Pod', kubeconfig: '/root/.kube/config' }, 'kubeconfig'],
      [{ kind: 'Pod', kubeconfig: { valueFrom: { secretKeyRef: { name: 'k', key: 'kubeconfig' } } } }, 'kubeconfig'],
      [{ kind: 'Pod', resource: { search: 'labels.app=web' } }, 'resource.search'],
    ] as const) {
      const reply = await save(check, editor);
      expect(reply.status, JSON.stringify(check)).toBe(400);
      expect(JSON.stringify(reply.json)).toContain(field);
    }
  });
});
