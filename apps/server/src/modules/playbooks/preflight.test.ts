import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookSpec } from '@opsdeck/shared';
import { playbookPreflight, reachable, toolsUsed } from './preflight';

describe('toolsUsed', () => {
  it('finds the well-known tools a script runs, wherever a command starts', () => {
    expect(toolsUsed('set -e\nkubectl get pods | jq .items\nout=$(helm list)\n(aws s3 ls)')).toEqual(['kubectl', 'helm', 'aws', 'jq']);
  });

  it('leaves out a tool the script tests for itself, and words that only contain a tool name', () => {
    expect(toolsUsed('if ! command -v kubectl >/dev/null; then exit 0; fi\nkubectl describe pod x')).toEqual([]);
    expect(toolsUsed('echo "my-kubectl-wrapper"; ./kubectl.sh; echo gitlab')).toEqual([]);
  });
});

describe('playbookPreflight', () => {
  const noPool = {} as pg.Pool;
  const spec = (script: string, extra: Record<string, unknown> = {}): PlaybookSpec => ({ actions: [{ name: 'run', exec: { script, ...extra } }] });

  it('says in one sentence that a tool is missing from this host', async () => {
    expect(await playbookPreflight(noPool, spec('kubectl rollout restart deploy/x'), () => false)).toEqual([
      { action: 'run', met: false, message: 'kubectl is not installed on this host' },
    ]);
  });

  it('says kubectl has no cluster unless the action gives it a kubernetes connection or KUBECONFIG', async () => {
    const installed = (): boolean => true;
    expect((await playbookPreflight(noPool, spec('kubectl get pods'), installed))[0]?.message).toMatch(/^kubectl has no cluster to talk to/);
    expect((await playbookPreflight(noPool, spec('kubectl get pods', { env: [{ name: 'KUBECONFIG', value: '/etc/kube.yaml' }] }), installed))[0]?.met).toBe(true);
    expect((await playbookPreflight(noPool, spec('kubectl get pods', { connections: { kubernetes: { connection: 'connection://k8s' } } }), installed))[0]?.met).toBe(true);
  });
});

describe('reachable', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tells a listening port from a closed one', async () => {
    expect(await reachable('127.0.0.1', port)).toBe(true);
    server.close();
    expect(await reachable('127.0.0.1', port)).toBe(false);
  });
});
