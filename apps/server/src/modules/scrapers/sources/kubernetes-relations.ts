import type { ItemKey, ScrapedRelationship } from '../types';
import { list, record, stringMap, text, type Json } from '../../../platform/json-values';

/** One object as the relation rules need it: the kind it was listed as and its parsed body. */
export interface KubernetesObject {
  kind: string;
  uid: string;
  name: string;
  namespace: string | null;
  body: Json;
}

export const CLUSTER_TYPE = 'Kubernetes::Cluster';

export function kubernetesType(kind: string): string {
  return `Kubernetes::${kind}`;
}

/** The root item every namespace and node hangs from; one per clusterName. */
export function clusterKey(clusterName: string): ItemKey {
  return { type: CLUSTER_TYPE, externalId: `cluster/${clusterName}` };
}

function keyOf(object: KubernetesObject): ItemKey {
  return { type: kubernetesType(object.kind), externalId: object.uid };
}

/**
 * The hard parent: the controlling owner (or the first owner) by uid, else the object's namespace, else the cluster.
 * An owner that was not listed in this run (a kind this source does not scrape) is still named: the ingest looks it
 * up among stored items and leaves the parent empty when it is nowhere.
 */
export function parentOf(object: KubernetesObject, namespaceUids: ReadonlyMap<string, string>, clusterName: string): ItemKey {
  const owners = list(record(object.body.metadata).ownerReferences);
  const owner = owners.find((entry) => entry.controller === true) ?? owners[0];
  const ownerUid = text(owner?.uid);
  const ownerKind = text(owner?.kind);
  if (ownerUid !== undefined && ownerKind !== undefined) return { type: kubernetesType(ownerKind), externalId: ownerUid };
  if (object.namespace !== null) {
    const namespaceUid = namespaceUids.get(object.namespace);
    if (namespaceUid !== undefined) return { type: kubernetesType('Namespace'), externalId: namespaceUid };
  }
  return clusterKey(clusterName);
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([name, value]) => labels[name] === value);
}

function ingressServiceNames(body: Json): string[] {
  const spec = record(body.spec);
  const backends = [record(spec.defaultBackend), ...list(spec.rules).flatMap((rule) => list(record(rule.http).paths).map((entry) => record(entry.backend)))];
  const names = backends.map((backend) => text(record(backend.service).name)).filter((name): name is string => name !== undefined);
  return [...new Set(names)];
}

/**
 * Soft links between listed objects: a service to the pods its selector picks, a pod to the node it runs on and an
 * ingress to the services its rules send traffic to. Only objects of this run are linked.
 */
export function relationshipsOf(objects: readonly KubernetesObject[]): Array<ScrapedRelationship & { from: ItemKey }> {
  const byKind = new Map<string, KubernetesObject[]>();
  for (const object of objects) byKind.set(object.kind, [...(byKind.get(object.kind) ?? []), object]);
  const pods = byKind.get('Pod') ?? [];
  const services = byKind.get('Service') ?? [];
  const nodes = new Map((byKind.get('Node') ?? []).map((node) => [node.name, node]));
  const servicesByName = new Map(services.map((service) => [`${service.namespace ?? ''}/${service.name}`, service]));
  const relationships: Array<ScrapedRelationship & { from: ItemKey }> = [];

  for (const service of services) {
    const selector = stringMap(record(service.body.spec).selector);
    for (const pod of pods) {
      if (pod.namespace === service.namespace && selects(selector, stringMap(record(pod.body.metadata).labels))) {
        relationships.push({ from: keyOf(service), to: keyOf(pod), relation: 'selects' });
      }
    }
  }
  for (const pod of pods) {
    const nodeName = text(record(pod.body.spec).nodeName);
    const node = nodeName === undefined ? undefined : nodes.get(nodeName);
    if (node !== undefined) relationships.push({ from: keyOf(pod), to: keyOf(node), relation: 'runs on' });
  }
  for (const ingress of byKind.get('Ingress') ?? []) {
    for (const name of ingressServiceNames(ingress.body)) {
      const service = servicesByName.get(`${ingress.namespace ?? ''}/${name}`);
      if (service !== undefined) relationships.push({ from: keyOf(ingress), to: keyOf(service), relation: 'routes to' });
    }
  }
  return relationships;
}
