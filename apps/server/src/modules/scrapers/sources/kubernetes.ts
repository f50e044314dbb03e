import type { AppsV1Api, BatchV1Api, CoreV1Api, KubeConfig, NetworkingV1Api, ConfigurationOptions, Observable } from '@kubernetes/client-node';
import { resolveConnection } from '../../connections';
import { bareSpec } from '../scraper-secrets';
import type { ItemKey, ScrapeError, ScrapedChange, ScrapedItem, ScrapeResult, SourceContext, SourceEntry, SourceRunner } from '../types';
import { record, stringMap, strings, text, type Json } from '../../../platform/json-values';
import { inClusterKubeConfig, kubeConfigFromConnection, kubeConfigFromText, kubeErrorMessage as messageOf, kubernetesClient, KubernetesSourceError, optional } from '../../../platform/kube-config';
import { kubernetesHealth } from '../../../platform/kubernetes-health';
import { CLUSTER_TYPE, clusterKey, kubernetesType, parentOf, relationshipsOf, type KubernetesObject } from './kubernetes-relations';
import { lookupRelationships } from './kubernetes-lookups';
import { IGNORE_CHANGE_SEVERITIES_ANNOTATION, IGNORE_CHANGE_TYPES_ANNOTATION, ignoresChange, ignoresObject } from '../change-annotations';

/** A page as every typed list call returns it; items are the client's model objects until serialized back. */
interface ListPage {
  items: object[];
  metadata?: { _continue?: string };
}

interface PageQuery {
  limit: number;
  _continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** The API clients of one run, with the two pieces of the (lazily loaded) library the listing needs. */
interface Clients {
  core: CoreV1Api;
  apps: AppsV1Api;
  batch: BatchV1Api;
  networking: NetworkingV1Api;
  observable: typeof Observable;
  serialize(item: unknown, model: string): unknown;
}

interface Resource {
  kind: string;
  plural: string;
  apiVersion: string;
  namespaced: boolean;
  /** The client's model name, used to turn its objects back into the API's JSON. */
  model: string;
  list(clients: Clients, namespace: string | null, query: PageQuery, options: ConfigurationOptions): Promise<ListPage>;
}

export const PAGE_SIZE = 500;

/** One list call may take this long; a stalled API server must not hold the run until its own timeout. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Every kind this source lists. Secrets are deliberately absent: their content must never be stored. */
export const RESOURCES: readonly Resource[] = [
  { kind: 'Namespace', plural: 'namespaces', apiVersion: 'v1', namespaced: false, model: 'V1Namespace', list: (c, _n, q, o) => c.core.listNamespace(q, o) },
  { kind: 'Node', plural: 'nodes', apiVersion: 'v1', namespaced: false, model: 'V1Node', list: (c, _n, q, o) => c.core.listNode(q, o) },
  {
    kind: 'Deployment',
    plural: 'deployments',
    apiVersion: 'apps/v1',
    namespaced: true,
    model: 'V1Deployment',
    list: (c, n, q, o) => (n === null ? c.apps.listDeploymentForAllNamespaces(q, o) : c.apps.listNamespacedDeployment({ ...q, namespace: n }, o)),
  },
  {
    kind: 'ReplicaSet',
    plural: 'replicasets',
    apiVersion: 'apps/v1',
    namespaced: true,
    model: 'V1ReplicaSet',
    list: (c, n, q, o) => (n === null ? c.apps.listReplicaSetForAllNamespaces(q, o) : c.apps.listNamespacedReplicaSet({ ...q, namespace: n }, o)),
  },
  {
    kind: 'StatefulSet',
    plural: 'statefulsets',
    apiVersion: 'apps/v1',
    namespaced: true,
    model: 'V1StatefulSet',
    list: (c, n, q, o) => (n === null ? c.apps.listStatefulSetForAllNamespaces(q, o) : c.apps.listNamespacedStatefulSet({ ...q, namespace: n }, o)),
  },
  {
    kind: 'DaemonSet',
    plural: 'daemonsets',
    apiVersion: 'apps/v1',
    namespaced: true,
    model: 'V1DaemonSet',
    list: (c, n, q, o) => (n === null ? c.apps.listDaemonSetForAllNamespaces(q, o) : c.apps.listNamespacedDaemonSet({ ...q, namespace: n }, o)),
  },
  {
    kind: 'Pod',
    plural: 'pods',
    apiVersion: 'v1',
    namespaced: true,
    model: 'V1Pod',
    list: (c, n, q, o) => (n === null ? c.core.listPodForAllNamespaces(q, o) : c.core.listNamespacedPod({ ...q, namespace: n }, o)),
  },
  {
    kind: 'Service',
    plural: 'services',
    apiVersion: 'v1',
    namespaced: true,
    model: 'V1Service',
    list: (c, n, q, o) => (n === null ? c.core.listServiceForAllNamespaces(q, o) : c.core.listNamespacedService({ ...q, namespace: n }, o)),
  },
  {
    kind: 'Ingress',
    plural: 'ingresses',
    apiVersion: 'networking.k8s.io/v1',
    namespaced: true,
    model: 'V1Ingress',
    list: (c, n, q, o) => (n === null ? c.networking.listIngressForAllNamespaces(q, o) : c.networking.listNamespacedIngress({ ...q, namespace: n }, o)),
  },
  {
    kind: 'ConfigMap',
    plural: 'configmaps',
    apiVersion: 'v1',
    namespaced: true,
    model: 'V1ConfigMap',
    list: (c, n, q, o) => (n === null ? c.core.listConfigMapForAllNamespaces(q, o) : c.core.listNamespacedConfigMap({ ...q, namespace: n }, o)),
  },
  {
    kind: 'Job',
    plural: 'jobs',
    apiVersion: 'batch/v1',
    namespaced: true,
    model: 'V1Job',
    list: (c, n, q, o) => (n === null ? c.batch.listJobForAllNamespaces(q, o) : c.batch.listNamespacedJob({ ...q, namespace: n }, o)),
  },
  {
    kind: 'CronJob',
    plural: 'cronjobs',
    apiVersion: 'batch/v1',
    namespaced: true,
    model: 'V1CronJob',
    list: (c, n, q, o) => (n === null ? c.batch.listCronJobForAllNamespaces(q, o) : c.batch.listNamespacedCronJob({ ...q, namespace: n }, o)),
  },
  {
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    apiVersion: 'v1',
    namespaced: true,
    model: 'V1PersistentVolumeClaim',
    list: (c, n, q, o) =>
      n === null ? c.core.listPersistentVolumeClaimForAllNamespaces(q, o) : c.core.listNamespacedPersistentVolumeClaim({ ...q, namespace: n }, o),
  },
];

const EVENTS: Resource = {
  kind: 'Event',
  plural: 'events',
  apiVersion: 'v1',
  namespaced: true,
  model: 'CoreV1Event',
  list: (c, n, q, o) => (n === null ? c.core.listEventForAllNamespaces(q, o) : c.core.listNamespacedEvent({ ...q, namespace: n }, o)),
};

/** The connection reference of a spec: `kubeconfig: connection://…`, `kubeconfig: {connection}` or `connection`. */
function connectionReference(spec: Json): string | undefined {
  const kubeconfig = spec.kubeconfig;
  if (typeof kubeconfig === 'string' && kubeconfig.startsWith('connection://')) return kubeconfig;
  return text(record(kubeconfig).connection) ?? text(spec.connection);
}

/**
 * The kubernetes connection the first kubernetes source of a stored scraper spec reads the cluster with; null when
 * none names one (in-cluster, or an inline kubeconfig). Playbooks' `connections.fromConfigItem` follows it.
 */
export function kubernetesConnectionOf(scraperSpec: unknown): string | null {
  const spec = bareSpec(scraperSpec);
  const sources = spec === null || !Array.isArray(spec.kubernetes) ? [] : spec.kubernetes;
  for (const source of sources) {
    const reference = connectionReference(record(source));
    if (reference !== undefined) return reference;
  }
  return null;
}

async function kubeConfigOf(spec: Json, context: SourceContext): Promise<KubeConfig> {
  const reference = connectionReference(spec);
  if (reference !== undefined) {
    let connection;
    try {
      connection = await resolveConnection(context.pool, context.secretKey, reference);
    } catch (error) {
      throw new KubernetesSourceError(messageOf(error));
    }
    return kubeConfigFromConnection(connection, reference);
  }
  const kubeconfig = record(spec.kubeconfig);
  if ('valueFrom' in kubeconfig) {
    throw new KubernetesSourceError('kubeconfig.valueFrom is not read by this server: store the kubeconfig in a kubernetes connection');
  }
  const inline = kubeconfig.value;
  if (typeof inline === 'string' && inline !== '') return kubeConfigFromText(inline);
  // Inline kubeconfigs are refused at save; a sealed one stored before that is never opened for a run.
  if (inline !== undefined) throw new KubernetesSourceError('an inline kubeconfig is refused: store it in a kubernetes connection');
  if (typeof spec.kubeconfig === 'string' && spec.kubeconfig !== '') {
    throw new KubernetesSourceError('kubeconfig must be a connection (connection://namespace/name), not a path: the server reads no kubeconfig files');
  }
  return inClusterKubeConfig();
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

interface Exclusions {
  names: RegExp[];
  namespaces: RegExp[];
  kinds: Set<string>;
  labels: Record<string, RegExp>;
}

function exclusionsOf(spec: Json): Exclusions {
  const raw = record(spec.exclusions);
  return {
    names: strings(raw.name).map(globToRegExp),
    namespaces: strings(raw.namespace).map(globToRegExp),
    kinds: new Set(strings(raw.kind).map((kind) => kind.toLowerCase())),
    labels: Object.fromEntries(Object.entries(stringMap(raw.labels)).map(([label, value]) => [label, globToRegExp(value)])),
  };
}

function isExcluded(object: KubernetesObject, exclusions: Exclusions): boolean {
  if (ignoresObject(stringMap(record(object.body.metadata).annotations))) return true;
  if (exclusions.kinds.has(object.kind.toLowerCase())) return true;
  if (exclusions.names.some((pattern) => pattern.test(object.name))) return true;
  const namespace = object.kind === 'Namespace' ? object.name : object.namespace;
  if (namespace !== null && exclusions.namespaces.some((pattern) => pattern.test(namespace))) return true;
  const labels = stringMap(record(object.body.metadata).labels);
  return Object.entries(exclusions.labels).some(([label, pattern]) => labels[label] !== undefined && pattern.test(labels[label]));
}

/**
 * The API cannot be reached, refuses the credentials, or the run was stopped: no later list can do better, so the
 * run ends with this one message instead of one per kind.
 */
class StopListing extends Error {}

const STOPPED = 'the run was stopped (timeout or shutdown) before every kind was listed';

function httpFailure(error: unknown): { code: number; message: string } | null {
  const failure = record(error);
  if (typeof failure.code !== 'number') return null;
  let body = failure.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      body = { message: body };
    }
  }
  const message = text(record(body).message) ?? text(record(body).reason);
  return { code: failure.code, message: `HTTP ${failure.code}${message === undefined ? '' : `: ${message}`}` };
}

/** Ties each request to the run's signal, so a stopped run stops waiting for the API server. */
function withSignal(signal: AbortSignal, observable: typeof Observable): ConfigurationOptions {
  return {
    middleware: [
      {
        pre: (request) => {
          request.setSignal(AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]));
          return new observable(Promise.resolve(request));
        },
        post: (response) => new observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

async function listAll(
  resource: Resource,
  clients: Clients,
  namespace: string | null,
  selectors: Omit<PageQuery, 'limit'>,
  signal: AbortSignal,
  server: string,
): Promise<Json[]> {
  const objects: Json[] = [];
  let token: string | undefined;
  do {
    if (signal.aborted) throw new StopListing(STOPPED);
    let page: ListPage;
    try {
      page = await resource.list(clients, namespace, { limit: PAGE_SIZE, ...selectors, ...(token === undefined ? {} : { _continue: token }) }, withSignal(signal, clients.observable));
    } catch (error) {
      if (signal.aborted) throw new StopListing(STOPPED);
      const http = httpFailure(error);
      if (http === null) throw new StopListing(`cannot reach the Kubernetes API at ${server}: ${messageOf(error)}`);
      if (http.code === 401) throw new StopListing(`the Kubernetes API at ${server} refused the credentials (${http.message})`);
      throw new Error(http.message);
    }
    for (const item of page.items) {
      // The serializer leaves every absent field as undefined; the JSON round trip drops them as the API's own JSON would.
      const body = record(JSON.parse(JSON.stringify(clients.serialize(item, resource.model))));
      objects.push({ apiVersion: resource.apiVersion, kind: resource.kind, ...body });
    }
    token = text(page.metadata?._continue);
  } while (token !== undefined);
  return objects;
}

/** The object as stored: without the fields that move on every write, so an untouched object compares equal. */
function storedConfig(body: Json): Json {
  const metadata = { ...record(body.metadata) };
  delete metadata.managedFields;
  delete metadata.resourceVersion;
  delete metadata.generation;
  return { ...body, metadata };
}

function toObject(kind: string, body: Json): KubernetesObject | null {
  const metadata = record(body.metadata);
  const uid = text(metadata.uid);
  const name = text(metadata.name);
  if (uid === undefined || name === undefined) return null;
  return { kind, uid, name, namespace: text(metadata.namespace) ?? null, body };
}

/** The object's labels, with config-db's change annotations among them as config-db keeps them. */
function labelsOf(object: KubernetesObject): Record<string, string> {
  const metadata = record(object.body.metadata);
  const annotations = stringMap(metadata.annotations);
  const labels = stringMap(metadata.labels);
  for (const name of [IGNORE_CHANGE_TYPES_ANNOTATION, IGNORE_CHANGE_SEVERITIES_ANNOTATION]) {
    const value = annotations[name];
    if (value !== undefined) labels[name] = value;
  }
  return labels;
}

function toItem(object: KubernetesObject, clusterName: string, source: string, namespaceUids: ReadonlyMap<string, string>): ScrapedItem {
  const metadata = record(object.body.metadata);
  const health = kubernetesHealth(object.kind, object.body);
  return {
    type: kubernetesType(object.kind),
    externalId: object.uid,
    name: object.name,
    aliases: [`${object.kind}/${object.namespace ?? ''}/${object.name}`],
    health: health.health,
    status: health.status,
    ready: health.ready,
    tags: { cluster: clusterName, ...(object.namespace === null ? {} : { namespace: object.namespace }) },
    labels: labelsOf(object),
    config: storedConfig(object.body),
    format: 'yaml',
    source,
    parent: parentOf(object, namespaceUids, clusterName),
    createdAt: text(metadata.creationTimestamp) ?? null,
  };
}

/** An object of the run, as its events find it: its item, and the labels that may hold config-db's change annotations. */
interface KnownObject {
  key: ItemKey;
  labels: Readonly<Record<string, string>>;
}

interface EventRules {
  reasons: RegExp[];
  names: RegExp[];
  namespaces: RegExp[];
  errorWords: string[];
  warnWords: string[];
}

function eventRulesOf(spec: Json): EventRules {
  const event = record(spec.event);
  const exclusions = event.exclusions;
  const keywords = record(event.severityKeywords);
  const byField = record(exclusions);
  return {
    reasons: (Array.isArray(exclusions) ? strings(exclusions) : strings(byField.reason)).map(globToRegExp),
    names: strings(byField.name).map(globToRegExp),
    namespaces: strings(byField.namespace).map(globToRegExp),
    errorWords: strings(keywords.error).map((word) => word.toLowerCase()),
    warnWords: strings(keywords.warn).map((word) => word.toLowerCase()),
  };
}

function severityOf(type: string | undefined, message: string, rules: EventRules): ScrapedChange['severity'] {
  const lower = message.toLowerCase();
  if (rules.errorWords.some((word) => lower.includes(word))) return 'high';
  if (type === 'Warning' || rules.warnWords.some((word) => lower.includes(word))) return 'warning';
  return 'info';
}

function toChange(event: Json, known: ReadonlyMap<string, KnownObject>, rules: EventRules, source: string): ScrapedChange | null {
  const involved = record(event.involvedObject);
  const object = known.get(text(involved.uid) ?? '');
  const item = object?.key;
  const uid = text(record(event.metadata).uid);
  const reason = text(event.reason);
  if (item === undefined || uid === undefined || reason === undefined) return null;
  if (rules.reasons.some((pattern) => pattern.test(reason))) return null;
  const name = text(involved.name) ?? '';
  const namespace = text(involved.namespace) ?? '';
  if (rules.names.some((pattern) => pattern.test(name)) || rules.namespaces.some((pattern) => pattern.test(namespace))) return null;
  const createdAt = text(event.lastTimestamp) ?? text(event.eventTime) ?? text(event.firstTimestamp) ?? text(record(event.metadata).creationTimestamp);
  if (createdAt === undefined) return null;
  const message = text(event.message) ?? reason;
  const severity = severityOf(text(event.type), message, rules);
  if (object !== undefined && ignoresChange(object.labels, reason, severity)) return null;
  const count = typeof event.count === 'number' ? event.count : 1;
  const origin = record(event.source);
  return {
    item,
    externalChangeId: `${uid}/${count}`,
    changeType: reason,
    severity,
    summary: message,
    details: { count, ...(text(origin.component) === undefined ? {} : { component: text(origin.component) }), ...(text(origin.host) === undefined ? {} : { host: text(origin.host) }) },
    source,
    createdAt,
  };
}

function failed(errors: ScrapeError[]): ScrapeResult {
  return { items: [], relationships: [], changes: [], errors, complete: false };
}

/** Lists the cluster's objects of RESOURCES through the Kubernetes API and its events as changes. */
export const runKubernetesSource: SourceRunner = async (entry: SourceEntry, context: SourceContext) => {
  const label = `kubernetes[${entry.index}]`;
  const spec = entry.spec;
  const clusterName = text(spec.clusterName);
  if (clusterName === undefined) return failed([{ where: label, message: 'clusterName is required' }]);
  let config: KubeConfig;
  try {
    config = await kubeConfigOf(spec, context);
  } catch (error) {
    return failed([{ where: label, message: messageOf(error) }]);
  }
  const library = await kubernetesClient();
  const { ObjectSerializer } = await import('@kubernetes/client-node/dist/gen/models/ObjectSerializer.js');
  const clients: Clients = {
    core: config.makeApiClient(library.CoreV1Api),
    apps: config.makeApiClient(library.AppsV1Api),
    batch: config.makeApiClient(library.BatchV1Api),
    networking: config.makeApiClient(library.NetworkingV1Api),
    observable: library.Observable,
    serialize: (item, model) => ObjectSerializer.serialize(item, model, ''),
  };
  const server = config.getCurrentCluster()?.server ?? 'the configured server';
  const namespace = text(spec.namespace) ?? null;
  const selectors = {
    ...optional('labelSelector', text(spec.selector)),
    ...optional('fieldSelector', text(spec.fieldSelector)),
  };
  const exclusions = exclusionsOf(spec);
  const source = `kubernetes/${clusterName}`;
  const errors: ScrapeError[] = [];
  const objects: KubernetesObject[] = [];

  for (const resource of RESOURCES) {
    let bodies: Json[];
    try {
      bodies = await listAll(resource, clients, resource.namespaced ? namespace : null, selectors, context.signal, server);
    } catch (error) {
      if (error instanceof StopListing) return failed([{ where: label, message: error.message }]);
      errors.push({ where: `${label} ${resource.plural}`, message: messageOf(error) });
      continue;
    }
    for (const body of bodies) {
      const object = toObject(resource.kind, body);
      if (object === null) continue;
      if (resource.kind === 'Namespace' && namespace !== null && object.name !== namespace) continue;
      if (!isExcluded(object, exclusions)) objects.push(object);
    }
  }

  const namespaceUids = new Map(objects.filter((object) => object.kind === 'Namespace').map((object) => [object.name, object.uid]));
  const cluster: ScrapedItem = {
    ...clusterKey(clusterName),
    name: clusterName,
    health: 'healthy',
    status: 'Reachable',
    ready: true,
    tags: { cluster: clusterName },
    labels: {},
    config: { kind: 'Cluster', name: clusterName },
    format: 'yaml',
    source,
    parent: null,
  };
  const items = [cluster, ...objects.map((object) => toItem(object, clusterName, source, namespaceUids))];

  const known = new Map<string, KnownObject>(
    items.filter((item) => item.type !== CLUSTER_TYPE).map((item) => [item.externalId, { key: { type: item.type, externalId: item.externalId }, labels: item.labels }]),
  );
  const rules = eventRulesOf(spec);
  const changes: ScrapedChange[] = [];
  try {
    const events = await listAll(EVENTS, clients, namespace, {}, context.signal, server);
    for (const event of events) {
      const change = toChange(event, known, rules, source);
      if (change !== null) changes.push(change);
    }
  } catch (error) {
    errors.push({ where: `${label} events`, message: messageOf(error) });
  }

  const looked = lookupRelationships(objects, Array.isArray(spec.relationships) ? spec.relationships : [], clusterName, label);
  // Events are not items, nor are looked-up links: a failed event list or lookup loses some changes or links, but
  // cannot make a stored item look deleted.
  const complete = !errors.some((error) => error.where !== `${label} events`);
  return { items, relationships: [...relationshipsOf(objects), ...looked.relationships], changes, errors: [...errors, ...looked.errors], complete };
};
