import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceContext } from '../types';
import { runKubernetesFileSource } from './kubernetes-file';

const MANIFESTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: { app: web }
spec:
  replicas: 2
status:
  readyReplicas: 1
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  labels: { app: web }
spec:
  selector: { app: web }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: other
data: { a: b }
`;

describe('runKubernetesFileSource', () => {
  let root: string;
  let outside: string;
  let context: SourceContext;

  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'kube-file-')));
    outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'kube-outside-')));
    mkdirSync(path.join(root, 'cluster'));
    writeFileSync(path.join(root, 'cluster', 'app.yaml'), MANIFESTS);
    writeFileSync(path.join(root, 'cluster', 'list.json'), JSON.stringify({ kind: 'List', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', uid: 'ns-uid' }, status: { phase: 'Active' } }] }));
    writeFileSync(path.join(root, 'cluster', 'broken.yaml'), 'kind: [unclosed');
    writeFileSync(path.join(outside, 'secret.yaml'), 'kind: Secret\nmetadata: { name: leaked }\n');
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(root, 'cluster', 'link.yaml'));
    context = { scraperId: 's', pool: {} as pg.Pool, secretKey: Buffer.alloc(32), roots: [root], ownDatabaseUrl: null, signal: new AbortController().signal };
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const run = (spec: Record<string, unknown>): ReturnType<typeof runKubernetesFileSource> => runKubernetesFileSource({ kind: 'kubernetesFile', index: 1, spec }, context);

  it('turns every manifest of the listed files into an item with kubernetes health', async () => {
    const result = await run({ files: [{ path: ['cluster/app.yaml', 'cluster/list.json'] }] });
    expect(result.errors).toEqual([]);
    expect(result.complete).toBe(true);
    expect(result.items.map((item) => `${item.type} ${item.externalId}`).sort()).toEqual([
      'Kubernetes::ConfigMap ConfigMap/other/settings',
      'Kubernetes::Deployment Deployment/shop/web',
      'Kubernetes::Namespace ns-uid',
      'Kubernetes::Service Service/shop/web',
    ]);
    const deployment = result.items.find((item) => item.type === 'Kubernetes::Deployment');
    expect(deployment).toMatchObject({ name: 'web', health: 'warning', status: '1/2 ready', tags: { namespace: 'shop' }, labels: { app: 'web' }, format: 'yaml' });
    expect(deployment?.source).toBe('file:cluster/app.yaml');
  });

  it('keeps only the objects the selector picks', async () => {
    const result = await run({ selector: { namespace: 'shop', kind: 'Service', labelSelector: 'app=web' }, files: [{ path: ['cluster/app.yaml'] }] });
    expect(result.items.map((item) => item.type)).toEqual(['Kubernetes::Service']);
  });

  it('reports a malformed file and a missing file as errors and marks the run incomplete', async () => {
    const result = await run({ files: [{ path: ['cluster/broken.yaml', 'cluster/none.yaml', 'cluster/app.yaml'] }] });
    expect(result.complete).toBe(false);
    expect(result.errors.map((error) => error.where)).toEqual(['kubernetesFile[1] cluster/broken.yaml', 'kubernetesFile[1] cluster/none.yaml']);
    expect(result.items).toHaveLength(3);
  });

  it('reads nothing outside the scrape roots, by path or through a symlink', async () => {
    const result = await run({ files: [{ path: [path.join(outside, 'secret.yaml'), 'cluster/link.yaml', '../../etc/passwd'] }] });
    expect(result.items).toEqual([]);
    expect(result.errors).toEqual([
      { where: 'kubernetesFile[1] a path outside the scrape roots', message: 'is outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read' },
      { where: 'kubernetesFile[1] cluster/link.yaml', message: 'is a symlink that leads outside the scrape roots: not read' },
      { where: 'kubernetesFile[1] a path outside the scrape roots', message: 'is outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read' },
    ]);
    expect(JSON.stringify(result)).not.toContain(outside);
  });

  it('refuses to run without files or without scrape roots', async () => {
    expect((await run({})).errors.map((error) => error.message)).toEqual(['no files: give files[].path']);
    const noRoots = await runKubernetesFileSource({ kind: 'kubernetesFile', index: 0, spec: { files: [{ path: ['a.yaml'] }] } }, { ...context, roots: [] });
    expect(noRoots.complete).toBe(false);
    expect(noRoots.errors[0]?.message).toMatch(/no scrape roots/);
  });
});
