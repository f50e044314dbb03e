import { list, record, text, type Json } from './json-values';

/** The health a catalog item or a component can have. */
export type ItemHealth = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

/** What the catalog shows for one Kubernetes object: the three item columns a source may fill. */
export interface KubernetesHealth {
  health: ItemHealth;
  status: string;
  ready: boolean;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function conditionsOf(status: Json): Condition[] {
  return list(status.conditions).flatMap((entry) => {
    const type = text(entry.type);
    const state = text(entry.status);
    if (type === undefined || state === undefined) return [];
    const reason = text(entry.reason);
    const message = text(entry.message);
    return [{ type, status: state, ...(reason === undefined ? {} : { reason }), ...(message === undefined ? {} : { message }) }];
  });
}

function condition(conditions: Condition[], type: string): Condition | undefined {
  return conditions.find((entry) => entry.type === type);
}

/** Waiting reasons that mean a container will not come up by itself. */
const BROKEN_WAITING = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError', 'InvalidImageName', 'CreateContainerError']);

function podHealth(status: Json): KubernetesHealth {
  const phase = text(status.phase) ?? 'Unknown';
  const containers = [...list(status.initContainerStatuses), ...list(status.containerStatuses)];
  for (const container of containers) {
    const reason = text(record(record(container.state).waiting).reason);
    if (reason !== undefined && BROKEN_WAITING.has(reason)) return { health: 'unhealthy', status: reason, ready: false };
  }
  for (const container of containers) {
    const terminated = record(record(container.state).terminated);
    if (text(terminated.reason) === 'OOMKilled') return { health: 'unhealthy', status: 'OOMKilled', ready: false };
  }
  if (phase === 'Succeeded') return { health: 'healthy', status: 'Completed', ready: true };
  if (phase === 'Failed') return { health: 'unhealthy', status: text(status.reason) ?? 'Failed', ready: false };
  if (phase === 'Unknown') return { health: 'unknown', status: 'Unknown', ready: false };
  const ready = condition(conditionsOf(status), 'Ready')?.status === 'True';
  if (phase === 'Pending') return { health: 'warning', status: 'Pending', ready: false };
  if (ready) return { health: 'healthy', status: 'Running', ready: true };
  const waiting = containers.map((container) => text(record(record(container.state).waiting).reason)).find((reason) => reason !== undefined);
  return { health: 'warning', status: waiting ?? 'NotReady', ready: false };
}

/** Deployments, stateful sets and replica sets: ready replicas against the desired count, and the rollout conditions. */
function replicaHealth(spec: Json, status: Json): KubernetesHealth {
  const desired = spec.replicas === undefined ? 1 : count(spec.replicas);
  const ready = count(status.readyReplicas);
  const conditions = conditionsOf(status);
  const progressing = condition(conditions, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    return { health: 'unhealthy', status: 'ProgressDeadlineExceeded', ready: false };
  }
  const failure = condition(conditions, 'ReplicaFailure');
  if (failure?.status === 'True') return { health: 'unhealthy', status: failure.reason ?? 'ReplicaFailure', ready: false };
  if (desired === 0) return { health: 'healthy', status: 'Scaled to 0', ready: true };
  const summary = `${ready}/${desired} ready`;
  if (ready >= desired) return { health: 'healthy', status: summary, ready: true };
  if (ready === 0) return { health: 'unhealthy', status: summary, ready: false };
  const available = condition(conditions, 'Available');
  return { health: available?.status === 'False' ? 'unhealthy' : 'warning', status: summary, ready: false };
}

function daemonSetHealth(status: Json): KubernetesHealth {
  const desired = count(status.desiredNumberScheduled);
  const ready = count(status.numberReady);
  const summary = `${ready}/${desired} ready`;
  if (ready >= desired) return { health: 'healthy', status: summary, ready: true };
  return { health: ready === 0 ? 'unhealthy' : 'warning', status: summary, ready: false };
}

const PRESSURE = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'];

function nodeHealth(spec: Json, status: Json): KubernetesHealth {
  const conditions = conditionsOf(status);
  const ready = condition(conditions, 'Ready');
  if (ready === undefined) return { health: 'unknown', status: 'Unknown', ready: false };
  if (ready.status !== 'True') return { health: 'unhealthy', status: 'NotReady', ready: false };
  const pressure = PRESSURE.find((type) => condition(conditions, type)?.status === 'True');
  if (pressure !== undefined) return { health: 'warning', status: pressure, ready: true };
  if (spec.unschedulable === true) return { health: 'warning', status: 'SchedulingDisabled', ready: true };
  return { health: 'healthy', status: 'Ready', ready: true };
}

function jobHealth(status: Json): KubernetesHealth {
  const conditions = conditionsOf(status);
  const failed = condition(conditions, 'Failed');
  if (failed?.status === 'True') return { health: 'unhealthy', status: failed.reason ?? 'Failed', ready: false };
  if (condition(conditions, 'Complete')?.status === 'True') return { health: 'healthy', status: 'Complete', ready: true };
  if (count(status.failed) > 0) return { health: 'warning', status: `${count(status.failed)} failed`, ready: false };
  if (count(status.active) > 0) return { health: 'healthy', status: 'Running', ready: false };
  return { health: 'unknown', status: 'Pending', ready: false };
}

function claimHealth(status: Json): KubernetesHealth {
  const phase = text(status.phase) ?? 'Unknown';
  if (phase === 'Bound') return { health: 'healthy', status: 'Bound', ready: true };
  if (phase === 'Lost') return { health: 'unhealthy', status: 'Lost', ready: false };
  return { health: 'warning', status: phase, ready: false };
}

function namespaceHealth(status: Json): KubernetesHealth {
  const phase = text(status.phase) ?? 'Active';
  return phase === 'Active' ? { health: 'healthy', status: 'Active', ready: true } : { health: 'warning', status: phase, ready: false };
}

function cronJobHealth(spec: Json): KubernetesHealth {
  return spec.suspend === true ? { health: 'healthy', status: 'Suspended', ready: true } : { health: 'healthy', status: 'Scheduled', ready: true };
}

/** Objects with no state of their own (services, ingresses, config maps) are healthy unless a condition says otherwise. */
function plainHealth(status: Json): KubernetesHealth {
  const failing = conditionsOf(status).find((entry) => entry.status === 'False');
  if (failing !== undefined) return { health: 'warning', status: failing.reason ?? `${failing.type} False`, ready: false };
  return { health: 'healthy', status: 'Active', ready: true };
}

/** Health, status and readiness of a Kubernetes object of the given kind, from its spec and status alone. */
export function kubernetesHealth(kind: string, object: unknown): KubernetesHealth {
  const body = record(object);
  const spec = record(body.spec);
  const status = record(body.status);
  if (text(record(body.metadata).deletionTimestamp) !== undefined) return { health: 'warning', status: 'Terminating', ready: false };
  switch (kind) {
    case 'Pod':
      return podHealth(status);
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return replicaHealth(spec, status);
    case 'DaemonSet':
      return daemonSetHealth(status);
    case 'Node':
      return nodeHealth(spec, status);
    case 'Job':
      return jobHealth(status);
    case 'PersistentVolumeClaim':
      return claimHealth(status);
    case 'Namespace':
      return namespaceHealth(status);
    case 'CronJob':
      return cronJobHealth(spec);
    default:
      return plainHealth(status);
  }
}
