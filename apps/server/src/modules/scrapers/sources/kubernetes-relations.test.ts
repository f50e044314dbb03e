import { describe, expect, it } from 'vitest';
import { clusterKey, parentOf, relationshipsOf, type KubernetesObject } from './kubernetes-relations';

function object(kind: string, name: string, namespace: string | null, body: Record<string, unknown> = {}): KubernetesObject {
  const uid = `${kind}-${name}`;
  return { kind, uid, name, namespace, body: { ...body, metadata: { name, uid, ...(namespace === null ? {} : { namespace }), ...((body.metadata as object | undefined) ?? {}) } } };
}

const namespaces = new Map([['shop', 'Namespace-shop']]);

describe('parentOf', () => {
  it('takes the controlling owner reference as the parent, by uid', () => {
    const pod = object('Pod', 'web-1', 'shop', {
      metadata: {
        ownerReferences: [
          { kind: 'Other', uid: 'other-uid', controller: false },
          { kind: 'ReplicaSet', uid: 'rs-uid', controller: true },
        ],
      },
    });
    expect(parentOf(pod, namespaces, 'prod')).toEqual({ type: 'Kubernetes::ReplicaSet', externalId: 'rs-uid' });
  });

  it('takes the first owner when none is marked as the controller', () => {
    const pod = object('Pod', 'web-1', 'shop', { metadata: { ownerReferences: [{ kind: 'Job', uid: 'job-uid' }] } });
    expect(parentOf(pod, namespaces, 'prod')).toEqual({ type: 'Kubernetes::Job', externalId: 'job-uid' });
  });

  it('hangs a namespaced object without owner from its namespace', () => {
    expect(parentOf(object('Service', 'web', 'shop'), namespaces, 'prod')).toEqual({ type: 'Kubernetes::Namespace', externalId: 'Namespace-shop' });
  });

  it('hangs namespaces, nodes and objects of an unlisted namespace from the cluster', () => {
    expect(parentOf(object('Namespace', 'shop', null), namespaces, 'prod')).toEqual(clusterKey('prod'));
    expect(parentOf(object('Node', 'node-1', null), namespaces, 'prod')).toEqual(clusterKey('prod'));
    expect(parentOf(object('Service', 'web', 'elsewhere'), namespaces, 'prod')).toEqual(clusterKey('prod'));
  });
});

describe('relationshipsOf', () => {
  const podA = object('Pod', 'a', 'shop', { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { nodeName: 'node-1' } });
  const podB = object('Pod', 'b', 'other', { metadata: { labels: { app: 'web' } }, spec: { nodeName: 'node-9' } });
  const node = object('Node', 'node-1', null);
  const service = object('Service', 'web', 'shop', { spec: { selector: { app: 'web' } } });
  const headless = object('Service', 'all', 'shop', { spec: {} });
  const ingress = object('Ingress', 'web', 'shop', {
    spec: { defaultBackend: { service: { name: 'all' } }, rules: [{ http: { paths: [{ backend: { service: { name: 'web' } } }, { backend: { service: { name: 'missing' } } }] } }] },
  });
  const links = relationshipsOf([podA, podB, node, service, headless, ingress]).map((link) => `${link.from.externalId} ${link.relation} ${link.to.externalId}`);

  it('links a service to the pods of its namespace that its selector matches', () => {
    expect(links).toContain('Service-web selects Pod-a');
    expect(links).not.toContain('Service-web selects Pod-b');
  });

  it('links no pods to a service without a selector', () => {
    expect(links.filter((link) => link.startsWith('Service-all selects'))).toEqual([]);
  });

  it('links a pod to the listed node it runs on', () => {
    expect(links).toContain('Pod-a runs on Node-node-1');
    expect(links.filter((link) => link.startsWith('Pod-b runs on'))).toEqual([]);
  });

  it('links an ingress to the services of its default backend and rules that exist', () => {
    expect(links.filter((link) => link.startsWith('Ingress-web')).sort()).toEqual(['Ingress-web routes to Service-all', 'Ingress-web routes to Service-web']);
  });
});
