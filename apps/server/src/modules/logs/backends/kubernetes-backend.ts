import type { CoreV1Api, KubeConfig, Observable, ConfigurationOptions, V1Pod } from '@kubernetes/client-node';
import type { z } from 'zod';
import type { kubernetesLogBackendSchema, LogLine } from '@opsdeck/shared';
import type { ResolvedConnection } from '../../connections';
import { inClusterKubeConfig, KubernetesSourceError, kubeConfigFromServer, kubeConfigFromText, kubernetesClient } from '../../../platform/kube-config';
import { logErrors } from '../log-errors';
import { renderLogTemplate } from '../log-templates';
import { parseLine, parseTime } from './line-parser';
import { LogBackendError, newestFirst, searchPattern, type LogQuery, type LogResult } from './types';

export type KubernetesLogBackendSpec = z.infer<typeof kubernetesLogBackendSchema>;

/** Pods whose logs one call reads at most, and bytes read per pod: a selector matching a whole fleet stays bounded. */
export const MAX_PODS = 20;
export const MAX_POD_LOG_BYTES = 8 * 1024 * 1024;
const POD_TYPE = 'Kubernetes::Pod';

/** A client for the backend's connection (a kubeconfig or a URL with a token), or the service account in-cluster. */
async function kubeConfigOf(connection: ResolvedConnection | null): Promise<KubeConfig> {
  try {
    if (connection !== null) {
      if (connection.type !== 'kubernetes') throw new LogBackendError(`connection '${connection.name}' is of type ${connection.type}, not kubernetes`);
      if (connection.certificate !== null && connection.certificate.trim() !== '') return await kubeConfigFromText(connection.certificate);
      if (connection.url !== null && connection.url !== '') return await kubeConfigFromServer(connection.url, connection.password, connection.insecureTls);
      throw new LogBackendError(`connection '${connection.name}' has neither a kubeconfig nor a URL`);
    }
    if ((process.env.KUBERNETES_SERVICE_HOST ?? '') === '') throw new LogBackendError('no kubernetes connection is named and the server does not run in a cluster');
    return await inClusterKubeConfig();
  } catch (error) {
    if (error instanceof KubernetesSourceError) throw new LogBackendError(error.message);
    throw error;
  }
}

/** Ties each API call to the query's deadline. */
function withSignal(signal: AbortSignal, observable: typeof Observable): ConfigurationOptions {
  return {
    middleware: [
      {
        pre: (request) => {
          request.setSignal(signal);
          return new observable(Promise.resolve(request));
        },
        post: (response) => new observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

/** What the API server said, without the request (which carries no secret, but is noise): `HTTP 403: pods is forbidden…`. */
function apiMessage(error: unknown): string {
  const fields = error as { code?: unknown; body?: unknown; message?: unknown };
  if (typeof fields.code === 'number') {
    let reason = '';
    if (typeof fields.body === 'string') {
      try {
        const body = JSON.parse(fields.body) as { message?: unknown };
        if (typeof body.message === 'string') reason = `: ${body.message}`;
      } catch {
        reason = '';
      }
    }
    return `HTTP ${fields.code}${reason.slice(0, 200)}`;
  }
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message.slice(0, 200) : 'the request failed';
}

interface PodTarget {
  name: string;
  namespace: string;
}

function selectorFromLabels(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** Which pods to read: the item itself for a pod item without a selector, else those the rendered labelSelector lists. */
async function podTargets(api: CoreV1Api, spec: KubernetesLogBackendSpec, query: LogQuery, options: ConfigurationOptions): Promise<PodTarget[]> {
  const subject = query.subject;
  const namespace = spec.namespace ?? subject.tags.namespace ?? subject.labels.namespace ?? 'default';
  if (spec.labelSelector === undefined && subject.kind === 'config' && subject.type === POD_TYPE) {
    return [{ name: subject.name, namespace: subject.tags.namespace ?? spec.namespace ?? 'default' }];
  }
  // Label selector requirements are ANDed: a value carrying a comma adds a requirement, it cannot widen the match.
  const labelSelector =
    spec.labelSelector === undefined ? selectorFromLabels(query.selectorLabels) : await renderLogTemplate('spec.kubernetes.labelSelector', spec.labelSelector, subject);
  if (labelSelector === '') throw logErrors.template('spec.kubernetes.labelSelector', 'there is no label selector: give one, or route labels');
  const list = await api.listNamespacedPod({ namespace, labelSelector, limit: MAX_PODS }, options);
  return list.items.flatMap((pod: V1Pod) => (pod.metadata?.name === undefined ? [] : [{ name: pod.metadata.name, namespace: pod.metadata.namespace ?? namespace }]));
}

/** `2026-01-05T10:00:00.123456789Z message` as the kubelet writes lines with timestamps=true. */
function splitTimestamp(line: string): { time: number | null; message: string } {
  const space = line.indexOf(' ');
  if (space <= 0) return { time: null, message: line };
  const time = parseTime(line.slice(0, space));
  return time === null ? { time: null, message: line } : { time, message: line.slice(space + 1) };
}

/** Pod logs through the Kubernetes API: the pods of the subject, each read since `start` with timestamps, filtered by the search text. */
export async function queryKubernetesBackend(spec: KubernetesLogBackendSpec, query: LogQuery, connection: ResolvedConnection | null): Promise<LogResult> {
  const config = await kubeConfigOf(connection);
  const library = await kubernetesClient();
  const api = config.makeApiClient(library.CoreV1Api);
  const options = withSignal(query.signal, library.Observable);
  let pods: PodTarget[];
  try {
    pods = await podTargets(api, spec, query, options);
  } catch (error) {
    if (error instanceof LogBackendError || (error as { statusCode?: unknown }).statusCode !== undefined) throw error;
    throw new LogBackendError(`listing pods failed: ${apiMessage(error)}`);
  }
  const sinceSeconds = Math.max(1, Math.ceil((Date.now() - query.start.getTime()) / 1000));
  const pattern = searchPattern(query.search);
  const endMs = query.end.getTime();
  const startMs = query.start.getTime();
  const lines: LogLine[] = [];
  let total = 0;
  for (const pod of pods.slice(0, MAX_PODS)) {
    let text: string;
    try {
      text = await api.readNamespacedPodLog(
        { name: pod.name, namespace: pod.namespace, sinceSeconds, timestamps: true, limitBytes: MAX_POD_LOG_BYTES, ...(spec.container === undefined ? {} : { container: spec.container }) },
        options,
      );
    } catch (error) {
      // A pod deleted between the list and the read has no log left: the others still answer.
      if ((error as { code?: unknown }).code === 404) continue;
      throw new LogBackendError(`reading the log of pod ${pod.namespace}/${pod.name} failed: ${apiMessage(error)}`);
    }
    const podLines = text.split('\n');
    for (const [index, raw] of podLines.entries()) {
      if (raw === '' || (pattern !== null && !pattern.test(raw))) continue;
      const { time, message } = splitTimestamp(raw);
      if (time !== null && (time < startMs || time > endMs)) continue;
      total += 1;
      const level = parseLine(message, { format: 'auto' }).level;
      lines.push({
        id: `${pod.name}:${index}`,
        timestamp: time === null ? null : new Date(time).toISOString(),
        message,
        labels: { namespace: pod.namespace, pod: pod.name, ...(spec.container === undefined ? {} : { container: spec.container }), ...(level === null ? {} : { level }) },
      });
    }
  }
  const sorted = newestFirst(lines);
  return { lines: sorted.slice(0, query.limit), total, truncated: total > query.limit };
}
