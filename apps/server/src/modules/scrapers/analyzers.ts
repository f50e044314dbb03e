import { X509Certificate } from 'node:crypto';

/** One insight about an item, upserted into config_analysis on (config_id, analyzer). */
export interface Finding {
  analyzer: AnalyzerName;
  analysis_type: 'availability' | 'reliability' | 'security';
  severity: 'info' | 'low' | 'medium' | 'high' | 'critical';
  summary: string;
  message: string;
  analysis: Record<string, unknown>;
}

/** Every analyzer the ingest runs: a finding of one of these that no longer fires is resolved. */
export const ANALYZERS = [
  'kubernetes-pod-crashloop',
  'kubernetes-pod-not-ready',
  'container-resource-limits',
  'container-image-tag',
  'certificate-expiry',
] as const;
export type AnalyzerName = (typeof ANALYZERS)[number];

const CERT_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;
const PEM_MARKER = '-----BEGIN CERTIFICATE-----';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function list(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const r = record(entry);
    return r === null ? [] : [r];
  });
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function isPod(type: string, config: Record<string, unknown>): boolean {
  return type === 'Kubernetes::Pod' || config.kind === 'Pod';
}

/** The pod specs an object runs: its own (a Pod), its template's (workloads) or its job template's (a CronJob). */
function podSpecs(type: string, config: Record<string, unknown>): Record<string, unknown>[] {
  const spec = record(config.spec);
  if (spec === null) return [];
  if (isPod(type, config)) return [spec];
  const templateSpec = record(record(spec.template)?.spec);
  if (templateSpec !== null) return [templateSpec];
  const jobTemplateSpec = record(record(record(record(spec.jobTemplate)?.spec)?.template)?.spec);
  return jobTemplateSpec === null ? [] : [jobTemplateSpec];
}

function containersOf(podSpec: Record<string, unknown>): Record<string, unknown>[] {
  return [...list(podSpec.initContainers), ...list(podSpec.containers)];
}

function crashLoop(type: string, config: Record<string, unknown>): Finding | null {
  if (!isPod(type, config)) return null;
  const status = record(config.status);
  if (status === null) return null;
  const crashing = [...list(status.initContainerStatuses), ...list(status.containerStatuses)]
    .filter((c) => text(record(record(c.state)?.waiting)?.reason) === 'CrashLoopBackOff')
    .map((c) => ({ name: text(c.name) ?? '?', restartCount: typeof c.restartCount === 'number' ? c.restartCount : null }));
  if (crashing.length === 0) return null;
  const names = crashing.map((c) => c.name).join(', ');
  return {
    analyzer: 'kubernetes-pod-crashloop',
    analysis_type: 'availability',
    severity: 'high',
    summary: `CrashLoopBackOff: ${names}`,
    message: `Container${crashing.length > 1 ? 's' : ''} ${names} keep${crashing.length > 1 ? '' : 's'} crashing and restarting (CrashLoopBackOff).`,
    analysis: { containers: crashing },
  };
}

function notReady(type: string, config: Record<string, unknown>): Finding | null {
  if (!isPod(type, config)) return null;
  const status = record(config.status);
  if (status === null) return null;
  // A pod whose containers ran to completion is done, not broken, though it reports Ready false.
  const phase = text(status.phase);
  if (phase === 'Succeeded') return null;
  const ready = list(status.conditions).find((c) => c.type === 'Ready');
  if (ready === undefined || ready.status === 'True') return null;
  const reason = text(ready.reason);
  return {
    analyzer: 'kubernetes-pod-not-ready',
    analysis_type: 'availability',
    severity: 'medium',
    summary: reason === null ? 'Pod is not ready' : `Pod is not ready: ${reason}`,
    message: text(ready.message) ?? `The pod's Ready condition is ${String(ready.status)}${phase === null ? '' : ` in phase ${phase}`}.`,
    analysis: { phase, reason, since: text(ready.lastTransitionTime) },
  };
}

function missingLimits(type: string, config: Record<string, unknown>): Finding | null {
  const containers = podSpecs(type, config).flatMap(containersOf);
  const unbounded = containers
    .filter((c) => {
      const limits = record(record(c.resources)?.limits);
      return limits === null || Object.keys(limits).length === 0;
    })
    .map((c) => text(c.name) ?? '?');
  if (unbounded.length === 0) return null;
  const names = unbounded.join(', ');
  return {
    analyzer: 'container-resource-limits',
    analysis_type: 'reliability',
    severity: 'low',
    summary: `No resource limits: ${names}`,
    message: `Container${unbounded.length > 1 ? 's' : ''} ${names} set${unbounded.length > 1 ? '' : 's'} no resources.limits, so one runaway process can starve its node.`,
    analysis: { containers: unbounded },
  };
}

/** The tag of an image reference, null when it has none; a digest pins the image, which counts as tagged. */
export function imageTag(image: string): string | null {
  if (image.includes('@')) return '@digest';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  return colon === -1 ? null : lastSegment.slice(colon + 1);
}

function floatingImages(type: string, config: Record<string, unknown>): Finding | null {
  const floating = podSpecs(type, config)
    .flatMap(containersOf)
    .flatMap((c) => {
      const image = text(c.image);
      if (image === null) return [];
      const tag = imageTag(image);
      return tag === null || tag === 'latest' ? [{ container: text(c.name) ?? '?', image }] : [];
    });
  if (floating.length === 0) return null;
  const images = floating.map((f) => f.image).join(', ');
  return {
    analyzer: 'container-image-tag',
    analysis_type: 'security',
    severity: 'medium',
    summary: `Image without a fixed tag: ${images}`,
    message: `${images} ${floating.length > 1 ? 'use' : 'uses'} the latest tag or no tag, so what runs can change without any change to this object.`,
    analysis: { containers: floating },
  };
}

function pemBlocks(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.includes(PEM_MARKER)) out.push(...(value.match(PEM_BLOCK) ?? []));
    return;
  }
  if (Array.isArray(value)) {
    for (const entry of value) pemBlocks(entry, out);
    return;
  }
  const r = record(value);
  if (r !== null) for (const entry of Object.values(r)) pemBlocks(entry, out);
}

function expiringCertificates(config: unknown, now: Date, json: string | undefined): Finding | null {
  if (json !== undefined && !json.includes(PEM_MARKER)) return null;
  const blocks: string[] = [];
  pemBlocks(config, blocks);
  const horizon = now.getTime() + CERT_WARNING_DAYS * DAY_MS;
  const expiring = blocks.flatMap((pem) => {
    try {
      const cert = new X509Certificate(pem);
      const notAfter = new Date(cert.validTo);
      return notAfter.getTime() <= horizon ? [{ subject: cert.subject.replace(/\n/g, ', '), notAfter: notAfter.toISOString() }] : [];
    } catch {
      // A block that does not parse is not a certificate this analyzer can judge.
      return [];
    }
  });
  if (expiring.length === 0) return null;
  const first = expiring.reduce((a, b) => (a.notAfter <= b.notAfter ? a : b));
  const expired = new Date(first.notAfter).getTime() <= now.getTime();
  return {
    analyzer: 'certificate-expiry',
    analysis_type: 'security',
    severity: expired ? 'critical' : 'high',
    summary: expired ? `TLS certificate expired on ${first.notAfter.slice(0, 10)}` : `TLS certificate expires on ${first.notAfter.slice(0, 10)}`,
    message: `${expiring.length === 1 ? 'A certificate' : `${expiring.length} certificates`} in this item ${expiring.length === 1 ? 'expires' : 'expire'} within ${CERT_WARNING_DAYS} days or already did; the first, ${first.subject}, ${expired ? 'expired' : 'expires'} on ${first.notAfter}.`,
    analysis: { certificates: expiring },
  };
}

export interface AnalyzeOptions {
  now?: Date;
  /** The item's content already serialized, so items without a certificate skip the walk. */
  json?: string;
}

/** The findings of every analyzer for one item; an analyzer that does not fire contributes nothing. */
export function analyzeItem(item: { type: string; config: unknown }, options: AnalyzeOptions = {}): Finding[] {
  const findings: Array<Finding | null> = [expiringCertificates(item.config, options.now ?? new Date(), options.json)];
  const config = record(item.config);
  if (config !== null) {
    findings.push(crashLoop(item.type, config), notReady(item.type, config), missingLimits(item.type, config), floatingImages(item.type, config));
  }
  return findings.filter((finding): finding is Finding => finding !== null);
}
