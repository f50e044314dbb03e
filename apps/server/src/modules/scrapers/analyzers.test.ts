import { describe, expect, it } from 'vitest';
import { analyzeItem, imageTag } from './analyzers';

// A self-signed certificate for shop.example.test, valid until 2026-12-06T08:00:16Z.
const CERT = `-----BEGIN CERTIFICATE-----
MIIBjTCCATOgAwIBAgIUaFzwjpRtDMQ/SBdaB5U4hGS23cEwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRc2hvcC5leGFtcGxlLnRlc3QwHhcNMjYxMTI2MDgwMDE2WhcN
MjYxMjA2MDgwMDE2WjAcMRowGAYDVQQDDBFzaG9wLmV4YW1wbGUudGVzdDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABIZxewjpnzlOunsHXlDf5GRMcCyqRYJcpTC8
0sE8BZpbrGRr36yO8YRKc/ofGc5Zl93DbKsPHUK8zjs40ea0fPOjUzBRMB0GA1Ud
DgQWBBSifnMklng/M4RW7BBE+IzwCh3ILzAfBgNVHSMEGDAWgBSifnMklng/M4RW
7BBE+IzwCh3ILzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDT
chCFWIYIrfUI0qDOrsXnzEwJ91oA30CcHkcfMeQASwIgKykcW/xytmb0zb/vHYZ1
dWoQufU5TjVkU+CgOQwk7Oc=
-----END CERTIFICATE-----`;

function pod(status: Record<string, unknown>, containers: unknown[] = [{ name: 'app', image: 'shop/app:1.0', resources: { limits: { cpu: '1' } } }]): { type: string; config: unknown } {
  return { type: 'Kubernetes::Pod', config: { kind: 'Pod', metadata: { name: 'app-1' }, spec: { containers }, status } };
}

const READY = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };

function analyzers(item: { type: string; config: unknown }, now?: Date): string[] {
  return analyzeItem(item, now === undefined ? {} : { now }).map((f) => f.analyzer);
}

describe('analyzeItem', () => {
  it('reports nothing for a ready pod with limits and a fixed image', () => {
    expect(analyzeItem(pod(READY))).toEqual([]);
  });

  it('reports a pod whose container is in CrashLoopBackOff as an availability finding', () => {
    const findings = analyzeItem(
      pod({
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'app', restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      }),
    );
    expect(findings).toEqual([
      expect.objectContaining({ analyzer: 'kubernetes-pod-crashloop', analysis_type: 'availability', severity: 'high', summary: 'CrashLoopBackOff: app' }),
    ]);
  });

  it('reports a pod that is not ready, but not one that completed', () => {
    const notReady = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }] };
    expect(analyzeItem(pod(notReady))).toEqual([
      expect.objectContaining({ analyzer: 'kubernetes-pod-not-ready', analysis_type: 'availability', summary: 'Pod is not ready: ContainersNotReady' }),
    ]);
    expect(analyzers(pod({ ...notReady, phase: 'Succeeded' }))).toEqual([]);
  });

  it('reports containers without limits in pods and in the templates of workloads and cron jobs', () => {
    const container = { name: 'worker', image: 'shop/worker:2' };
    expect(analyzers(pod(READY, [container]))).toEqual(['container-resource-limits']);
    const deployment = { type: 'Kubernetes::Deployment', config: { kind: 'Deployment', spec: { template: { spec: { containers: [container] } } } } };
    const cronJob = {
      type: 'Kubernetes::CronJob',
      config: { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: { containers: [{ ...container, resources: { limits: {} } }] } } } } } },
    };
    expect(analyzeItem(deployment)[0]).toEqual(expect.objectContaining({ analysis_type: 'reliability', analysis: { containers: ['worker'] } }));
    expect(analyzers(cronJob)).toEqual(['container-resource-limits']);
  });

  it('reports images with the latest tag or none as a security finding, and accepts digests and registry ports', () => {
    const limits = { limits: { memory: '1Gi' } };
    const containers = [
      { name: 'a', image: 'nginx', resources: limits },
      { name: 'b', image: 'registry.local:5000/shop/app:latest', resources: limits },
      { name: 'c', image: 'registry.local:5000/shop/app', resources: limits },
      { name: 'd', image: 'shop/app@sha256:abcd', resources: limits },
      { name: 'e', image: 'shop/app:1.2', resources: limits },
    ];
    const findings = analyzeItem(pod(READY, containers));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toEqual(expect.objectContaining({ analyzer: 'container-image-tag', analysis_type: 'security' }));
    expect(findings[0]?.analysis).toEqual({
      containers: [
        { container: 'a', image: 'nginx' },
        { container: 'b', image: 'registry.local:5000/shop/app:latest' },
        { container: 'c', image: 'registry.local:5000/shop/app' },
      ],
    });
    expect(imageTag('registry.local:5000/app')).toBeNull();
  });

  it('reports a PEM certificate anywhere in the content that expires within 30 days', () => {
    const configMap = { type: 'Kubernetes::ConfigMap', config: { kind: 'ConfigMap', data: { 'tls.crt': `${CERT}\n` } } };
    const soon = analyzeItem(configMap, { now: new Date('2026-11-20T00:00:00Z') });
    expect(soon).toEqual([
      expect.objectContaining({ analyzer: 'certificate-expiry', analysis_type: 'security', severity: 'high', summary: 'TLS certificate expires on 2026-12-06' }),
    ]);
    expect(soon[0]?.analysis).toEqual({ certificates: [{ subject: 'CN=shop.example.test', notAfter: '2026-12-06T08:00:16.000Z' }] });
    expect(analyzeItem(configMap, { now: new Date('2027-01-01T00:00:00Z') })[0]?.severity).toBe('critical');
    expect(analyzers(configMap, new Date('2026-10-01T00:00:00Z'))).toEqual([]);
  });

  it('ignores a certificate block that does not parse', () => {
    const broken = { type: 'File::Pem', config: { pem: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' } };
    expect(analyzeItem(broken)).toEqual([]);
  });
});
