import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesCheckSpec } from '@opsdeck/shared';
import { isRecord, record, text, type Json } from '../../../platform/json-values';
import { kubernetesHealth } from '../../../platform/kubernetes-health';
import { inClusterKubeConfig, kubeConfigFromConnection } from '../../../platform/kube-config';
import { failed, type CheckerContext, type CheckOutcome } from './checker';

/**
 * canary-checker's `kubernetes` check: the resources of one kind in the namespaces selected, each judged healthy and
 * ready as the catalog judges Kubernetes objects. `results` is the list canary-checker gives its expressions: one
 * `{Object}` per resource, the object carrying `healthStatus`. Every request is a GET: the check never changes the
 * cluster, and never lists Secrets (their content would reach the result and the expressions).
 */

/** One list page; the continue token pages the rest. */
const PAGE_SIZE = 500;
/** Beyond this many resources the check fails and says to narrow the selector: results are held in memory and stored. */
export const MAX_KUBERNETES_RESOURCES = 5000;

/** Kinds whose API path is known without discovery: the kinds canary-checker's fixtures check most. */
const WELL_KNOWN: Readonly<Record<string, { apiVersion: string; plural: string; namespaced: boolean }>> = {
  Pod: { apiVersion: 'v1', plural: 'pods', namespaced: true },
  Service: { apiVersion: 'v1', plural: 'services', namespaced: true },
  ConfigMap: { apiVersion: 'v1', plural: 'configmaps', namespaced: true },
  Event: { apiVersion: 'v1', plural: 'events', namespaced: true },
  PersistentVolumeClaim: { apiVersion: 'v1', plural: 'persistentvolumeclaims', namespaced: true },
  Namespace: { apiVersion: 'v1', plural: 'namespaces', namespaced: false },
  Node: { apiVersion: 'v1', plural: 'nodes', namespaced: false },
  Deployment: { apiVersion: 'apps/v1', plural: 'deployments', namespaced: true },
  StatefulSet: { apiVersion: 'apps/v1', plural: 'statefulsets', namespaced: true },
  DaemonSet: { apiVersion: 'apps/v1', plural: 'daemonsets', namespaced: true },
  ReplicaSet: { apiVersion: 'apps/v1', plural: 'replicasets', namespaced: true },
  Job: { apiVersion: 'batch/v1', plural: 'jobs', namespaced: true },
  CronJob: { apiVersion: 'batch/v1', plural: 'cronjobs', namespaced: true },
  Ingress: { apiVersion: 'networking.k8s.io/v1', plural: 'ingresses', namespaced: true },
};

interface KindPath {
  apiVersion: string;
  plural: string;
  namespaced: boolean;
}

class KubernetesCheckError extends Error {}

function groupPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/** GETs one API path as JSON, with the connection's credentials and TLS settings, bounded by the check's signal. */
async function getJson(config: KubeConfig, path: string, signal: AbortSignal): Promise<Json> {
  const server = config.getCurrentCluster()?.server;
  if (server === undefined) throw new KubernetesCheckError('the kubeconfig names no server');
  const url = new URL(path, server.endsWith('/') ? server : `${server}/`);
  const options: https.RequestOptions = { method: 'GET', headers: { accept: 'application/json' } };
  await config.applyToHTTPSOptions(options);
  const plain = url.protocol === 'http:';
  // The client builds an https agent; a plain-HTTP API server (allowed only with insecure TLS) takes the default one.
  if (plain) delete options.agent;
  return new Promise<Json>((resolve, reject) => {
    const request = (plain ? http : https).request(url, { ...options, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = { message: body.slice(0, 200) };
        }
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          resolve(record(parsed));
          return;
        }
        const message = text(record(parsed).message) ?? `HTTP ${status}`;
        reject(new KubernetesCheckError(status === 401 ? `the Kubernetes API at ${server} refused the credentials (HTTP 401)` : `GET ${url.pathname}: HTTP ${status}: ${message}`));
      });
    });
    request.on('error', (error) => reject(signal.aborted ? new KubernetesCheckError('the check timed out before the Kubernetes API answered') : new KubernetesCheckError(`cannot reach the Kubernetes API at ${server}: ${error.message}`)));
    request.end();
  });
}

function resourceIn(list: Json, kind: string): { plural: string; namespaced: boolean } | null {
  for (const entry of Array.isArray(list.resources) ? list.resources.map(record) : []) {
    const name = text(entry.name);
    // Subresources (pods/log, deployments/scale) share their parent's kind.
    if (name !== undefined && !name.includes('/') && entry.kind === kind) return { plural: name, namespaced: entry.namespaced === true };
  }
  return null;
}

/** Where the kind is listed: the table above, else API discovery (the core group, then each group's preferred version). */
async function kindPath(config: KubeConfig, kind: string, apiVersion: string | undefined, signal: AbortSignal): Promise<KindPath> {
  const known = WELL_KNOWN[kind];
  if (known !== undefined && (apiVersion === undefined || apiVersion === known.apiVersion)) return known;
  const versions = apiVersion !== undefined ? [apiVersion] : ['v1', ...(await preferredGroupVersions(config, signal))];
  for (const version of versions) {
    const found = resourceIn(await getJson(config, groupPath(version), signal), kind);
    if (found !== null) return { apiVersion: version, ...found };
  }
  throw new KubernetesCheckError(`the Kubernetes API serves no kind ${kind}${apiVersion === undefined ? '' : ` in ${apiVersion}`}`);
}

async function preferredGroupVersions(config: KubeConfig, signal: AbortSignal): Promise<string[]> {
  const groups = await getJson(config, '/apis', signal);
  return (Array.isArray(groups.groups) ? groups.groups.map(record) : []).flatMap((group) => {
    const version = text(record(group.preferredVersion).groupVersion);
    return version === undefined ? [] : [version];
  });
}

/** A comma list of names and globs, `!` marking exclusions: the names canary-checker's selectors match. */
export function nameMatcher(pattern: string | undefined): (name: string) => boolean {
  const parts = (pattern ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
  const toRegExp = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const included = parts.filter((part) => !part.startsWith('!')).map(toRegExp);
  const excluded = parts.filter((part) => part.startsWith('!')).map((part) => toRegExp(part.slice(1)));
  return (name) => (included.length === 0 || included.some((rule) => rule.test(name))) && !excluded.some((rule) => rule.test(name));
}

async function listAll(config: KubeConfig, path: string, selector: { labelSelector?: string | undefined; fieldSelector?: string | undefined }, signal: AbortSignal): Promise<Json[]> {
  const objects: Json[] = [];
  let token: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (selector.labelSelector !== undefined && selector.labelSelector !== '') query.set('labelSelector', selector.labelSelector);
    if (selector.fieldSelector !== undefined && selector.fieldSelector !== '') query.set('fieldSelector', selector.fieldSelector);
    if (token !== undefined) query.set('continue', token);
    const page = await getJson(config, `${path}?${query.toString()}`, signal);
    objects.push(...(Array.isArray(page.items) ? page.items.filter(isRecord) : []));
    if (objects.length > MAX_KUBERNETES_RESOURCES) {
      throw new KubernetesCheckError(`more than ${MAX_KUBERNETES_RESOURCES} resources match: narrow namespaceSelector or resource`);
    }
    token = text(record(page.metadata).continue);
  } while (token !== undefined);
  return objects;
}

async function kubeConfigFor(spec: KubernetesCheckSpec, context: CheckerContext): Promise<KubeConfig> {
  const kubeconfig = spec.kubeconfig;
  const reference = typeof kubeconfig === 'string' ? kubeconfig : (kubeconfig?.connection ?? spec.connection);
  if (reference === undefined) return inClusterKubeConfig();
  return kubeConfigFromConnection(await context.resolveConnection(reference), reference);
}

/** The namespaces to list in: null for every namespace at once. */
async function namespacesFor(spec: KubernetesCheckSpec, config: KubeConfig, context: CheckerContext): Promise<string[] | null> {
  const selector = spec.namespaceSelector ?? {};
  const byName = (selector.name ?? '').trim();
  const bySelectors = (selector.labelSelector ?? '') !== '' || (selector.fieldSelector ?? '') !== '';
  if (byName === '' && !bySelectors) {
    const own = spec.namespace ?? text(context.identity?.canary.namespace) ?? 'default';
    return [own];
  }
  if (byName === '*' && !bySelectors) return null;
  const matches = nameMatcher(byName);
  const namespaces = await listAll(config, '/api/v1/namespaces', selector, context.signal);
  return namespaces.map((namespace) => text(record(namespace.metadata).name) ?? '').filter((name) => name !== '' && matches(name));
}

function describe(object: Json, kind: string): string {
  const metadata = record(object.metadata);
  const namespace = text(metadata.namespace);
  return `${kind}/${namespace === undefined ? '' : `${namespace}/`}${text(metadata.name) ?? ''}`;
}

export async function runKubernetesCheck(spec: KubernetesCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const started = performance.now();
  // Refused at save too; a spec stored some other way must still never list them.
  if (spec.kind === 'Secret') return failed('Secrets are never listed: their content would reach the result and its expressions');
  try {
    const config = await kubeConfigFor(spec, context);
    const where = await kindPath(config, spec.kind, spec.apiVersion, context.signal);
    const namespaces = where.namespaced ? await namespacesFor(spec, config, context) : null;
    const prefix = groupPath(where.apiVersion);
    const paths = namespaces === null ? [`${prefix}/${where.plural}`] : namespaces.map((namespace) => `${prefix}/namespaces/${encodeURIComponent(namespace)}/${where.plural}`);
    const named = nameMatcher(spec.resource?.name);
    const ignored = (spec.ignore ?? []).map((glob) => nameMatcher(glob));
    const resources: Json[] = [];
    for (const path of paths) {
      for (const object of await listAll(config, path, spec.resource ?? {}, context.signal)) {
        const name = text(record(object.metadata).name) ?? '';
        if (!named(name) || ignored.some((ignore) => ignore(name))) continue;
        resources.push(object);
        if (resources.length > MAX_KUBERNETES_RESOURCES) throw new KubernetesCheckError(`more than ${MAX_KUBERNETES_RESOURCES} resources match: narrow namespaceSelector or resource`);
      }
    }
    const problems: string[] = [];
    const results = resources.map((object) => {
      const health = kubernetesHealth(spec.kind, object);
      if (spec.healthy === true && health.health !== 'healthy') problems.push(`${describe(object, spec.kind)} is not healthy (health: ${health.health}, status: ${health.status})`);
      if (spec.ready === true && !health.ready) problems.push(`${describe(object, spec.kind)} is not ready (status: ${health.status})`);
      return { Object: { apiVersion: where.apiVersion, kind: spec.kind, ...object, healthStatus: health } };
    });
    const durationMs = Math.round(performance.now() - started);
    const data = { results };
    const details = { resources: resources.length, kind: spec.kind };
    // canary-checker fails an empty list unless a test expression judges it.
    if (resources.length === 0 && context.hasTestExpression !== true) return { ...failed(`no ${spec.kind} resources found`, details), data, durationMs };
    if (problems.length > 0) return { ...failed(problems.join('\n'), details), data, durationMs };
    return { pass: true, message: `${resources.length} ${spec.kind} resource${resources.length === 1 ? '' : 's'}`, details, data, durationMs };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}
