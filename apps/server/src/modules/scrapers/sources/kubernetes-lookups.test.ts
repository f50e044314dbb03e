import { describe, expect, it } from 'vitest';
import { lookupRelationships } from './kubernetes-lookups';
import type { KubernetesObject } from './kubernetes-relations';

function object(kind: string, name: string, namespace: string | null, body: Record<string, unknown>): KubernetesObject {
  return { kind, uid: `${kind}-${name}`, name, namespace, body };
}

const volume = object('PersistentVolume', 'pv-1', null, { metadata: { name: 'pv-1' }, spec: { claimRef: { kind: 'PersistentVolumeClaim', name: 'data', namespace: 'shop' } } });
const managed = object('Deployment', 'web', 'shop', {
  metadata: { name: 'web', namespace: 'shop', labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' } },
});
const plain = object('Deployment', 'api', 'shop', { metadata: { name: 'api', namespace: 'shop' } });

const rules = [
  {
    kind: { expr: "has(spec.claimRef) ? spec.claimRef.kind : ''" },
    name: { expr: "has(spec.claimRef) ? spec.claimRef.name : ''" },
    namespace: { expr: "has(spec.claimRef) ? spec.claimRef.namespace : ''" },
  },
  { kind: { value: 'Kustomization' }, name: { label: 'kustomize.toolkit.fluxcd.io/name' }, namespace: { label: 'kustomize.toolkit.fluxcd.io/namespace' } },
];

describe("a kubernetes source's relationships lookups", () => {
  it('looks up kind, name and namespace by value, label and CEL over metadata and spec, and skips an object when one comes out empty', () => {
    const { relationships, errors } = lookupRelationships([volume, managed, plain], rules, 'prod', 'kubernetes[0]');
    expect(errors).toEqual([]);
    expect(relationships).toEqual([
      { from: { lookup: { cluster: 'prod', type: 'Kubernetes::PersistentVolumeClaim', name: 'data', namespace: 'shop' } }, to: { type: 'Kubernetes::PersistentVolume', externalId: 'PersistentVolume-pv-1' }, relation: 'related' },
      { from: { lookup: { cluster: 'prod', type: 'Kubernetes::Kustomization', name: 'apps', namespace: 'flux-system' } }, to: { type: 'Kubernetes::Deployment', externalId: 'Deployment-web' }, relation: 'related' },
    ]);
  });

  it('reports a lookup that fails on one object and keeps going with the others', () => {
    const { relationships, errors } = lookupRelationships([plain, volume], [{ name: { expr: 'spec.claimRef.name' } }], 'prod', 'kubernetes[0]');
    expect(errors.map((error) => error.where)).toEqual(['kubernetes[0] relationships[0] Deployment/shop/api']);
    expect(relationships.map((link) => link.to.externalId)).toEqual(['PersistentVolume-pv-1']);
  });
});
