import { describe, expect, it } from 'vitest';
import { kubernetesHealth } from './kubernetes-health';

const pod = (status: Record<string, unknown>): Record<string, unknown> => ({ metadata: { name: 'p' }, spec: {}, status });
const waiting = (reason: string): Record<string, unknown> => ({ name: 'app', ready: false, state: { waiting: { reason } } });

describe('kubernetesHealth', () => {
  it('calls a running pod whose Ready condition is true healthy and ready', () => {
    expect(kubernetesHealth('Pod', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }))).toEqual({ health: 'healthy', status: 'Running', ready: true });
  });

  it('calls a pod with a container in CrashLoopBackOff or ImagePullBackOff unhealthy, naming the reason', () => {
    for (const reason of ['CrashLoopBackOff', 'ImagePullBackOff']) {
      expect(kubernetesHealth('Pod', pod({ phase: 'Running', containerStatuses: [waiting(reason)] }))).toEqual({ health: 'unhealthy', status: reason, ready: false });
    }
  });

  it('calls a running pod that is not ready a warning', () => {
    expect(kubernetesHealth('Pod', pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: [waiting('ContainerCreating')] }))).toEqual({
      health: 'warning',
      status: 'ContainerCreating',
      ready: false,
    });
  });

  it('calls pending pods a warning, failed pods unhealthy and completed pods healthy', () => {
    expect(kubernetesHealth('Pod', pod({ phase: 'Pending' })).health).toBe('warning');
    expect(kubernetesHealth('Pod', pod({ phase: 'Failed', reason: 'Evicted' }))).toMatchObject({ health: 'unhealthy', status: 'Evicted' });
    expect(kubernetesHealth('Pod', pod({ phase: 'Succeeded' }))).toMatchObject({ health: 'healthy', status: 'Completed' });
  });

  it('compares ready replicas with the desired count for deployments, stateful sets and replica sets', () => {
    for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet']) {
      expect(kubernetesHealth(kind, { spec: { replicas: 3 }, status: { readyReplicas: 3 } })).toEqual({ health: 'healthy', status: '3/3 ready', ready: true });
      expect(kubernetesHealth(kind, { spec: { replicas: 3 }, status: { readyReplicas: 1 } })).toEqual({ health: 'warning', status: '1/3 ready', ready: false });
      expect(kubernetesHealth(kind, { spec: { replicas: 3 }, status: {} })).toEqual({ health: 'unhealthy', status: '0/3 ready', ready: false });
    }
  });

  it('calls a deployment whose rollout passed its deadline unhealthy, and a partly ready one that is not Available unhealthy', () => {
    const deadline = { spec: { replicas: 2 }, status: { readyReplicas: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] } };
    expect(kubernetesHealth('Deployment', deadline)).toMatchObject({ health: 'unhealthy', status: 'ProgressDeadlineExceeded' });
    const unavailable = { spec: { replicas: 3 }, status: { readyReplicas: 1, conditions: [{ type: 'Available', status: 'False' }] } };
    expect(kubernetesHealth('Deployment', unavailable).health).toBe('unhealthy');
  });

  it('calls a deployment scaled to zero healthy', () => {
    expect(kubernetesHealth('Deployment', { spec: { replicas: 0 }, status: {} })).toMatchObject({ health: 'healthy', status: 'Scaled to 0' });
  });

  it('compares ready daemon set pods with the scheduled count', () => {
    expect(kubernetesHealth('DaemonSet', { status: { desiredNumberScheduled: 4, numberReady: 4 } }).health).toBe('healthy');
    expect(kubernetesHealth('DaemonSet', { status: { desiredNumberScheduled: 4, numberReady: 2 } }).health).toBe('warning');
  });

  it('calls a ready node healthy, one under pressure a warning and a not-ready one unhealthy', () => {
    const node = (conditions: Array<Record<string, string>>): Record<string, unknown> => ({ spec: {}, status: { conditions } });
    expect(kubernetesHealth('Node', node([{ type: 'Ready', status: 'True' }]))).toEqual({ health: 'healthy', status: 'Ready', ready: true });
    expect(kubernetesHealth('Node', node([{ type: 'Ready', status: 'True' }, { type: 'DiskPressure', status: 'True' }]))).toEqual({
      health: 'warning',
      status: 'DiskPressure',
      ready: true,
    });
    expect(kubernetesHealth('Node', node([{ type: 'Ready', status: 'Unknown' }]))).toEqual({ health: 'unhealthy', status: 'NotReady', ready: false });
  });

  it('calls a failed job unhealthy and a complete one healthy', () => {
    expect(kubernetesHealth('Job', { status: { failed: 6, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } })).toMatchObject({
      health: 'unhealthy',
      status: 'BackoffLimitExceeded',
    });
    expect(kubernetesHealth('Job', { status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } })).toMatchObject({ health: 'healthy', status: 'Complete' });
  });

  it('calls a bound claim healthy and a pending one a warning', () => {
    expect(kubernetesHealth('PersistentVolumeClaim', { status: { phase: 'Bound' } }).health).toBe('healthy');
    expect(kubernetesHealth('PersistentVolumeClaim', { status: { phase: 'Pending' } })).toMatchObject({ health: 'warning', status: 'Pending' });
  });

  it('calls an active namespace healthy and a terminating one a warning', () => {
    expect(kubernetesHealth('Namespace', { status: { phase: 'Active' } }).health).toBe('healthy');
    expect(kubernetesHealth('Namespace', { status: { phase: 'Terminating' } })).toMatchObject({ health: 'warning', status: 'Terminating' });
  });

  it('calls services, ingresses, config maps and cron jobs healthy unless a condition is false', () => {
    for (const kind of ['Service', 'Ingress', 'ConfigMap', 'CronJob']) expect(kubernetesHealth(kind, { spec: {}, status: {} }).health).toBe('healthy');
    expect(kubernetesHealth('Service', { status: { conditions: [{ type: 'LoadBalancerReady', status: 'False', reason: 'NoAddress' }] } })).toMatchObject({
      health: 'warning',
      status: 'NoAddress',
    });
  });

  it('calls any object being deleted a warning', () => {
    expect(kubernetesHealth('Deployment', { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: { replicas: 1 }, status: { readyReplicas: 1 } })).toMatchObject({
      health: 'warning',
      status: 'Terminating',
    });
  });

  it('copes with objects that have no spec or status at all', () => {
    for (const kind of ['Pod', 'Deployment', 'Node', 'Job', 'DaemonSet', 'Widget']) expect(() => kubernetesHealth(kind, null)).not.toThrow();
  });
});
