import { Scalar, stringify } from 'yaml';
import type { AgentKubernetesSettings, AgentPushTelemetrySettings } from '@opsdeck/shared';

/** Where the agent's Helm chart is published, and the names it installs under in the cluster. */
export const AGENT_CHART = {
  repositoryName: 'opsdeck',
  repositoryUrl: 'https://charts.opsdeck.local',
  chart: 'opsdeck-agent',
  release: 'opsdeck-agent',
  namespace: 'opsdeck',
} as const;

export interface InstallationTarget {
  /** The server the agent pushes to, e.g. window.location.origin. */
  serverUrl: string;
  agentName: string;
  accessToken: string;
  kubernetes: AgentKubernetesSettings;
  pushTelemetry: AgentPushTelemetrySettings;
}

/** The chart values both installation paths set. */
function chartValues(target: InstallationTarget): Record<string, unknown> {
  return {
    upstream: { host: target.serverUrl, agentName: target.agentName, token: target.accessToken },
    kubernetes: { enabled: target.kubernetes.enabled, interval: target.kubernetes.interval },
    pushTelemetry: {
      enabled: target.pushTelemetry.enabled,
      ...(target.pushTelemetry.topologyName === null ? {} : { topologyName: target.pushTelemetry.topologyName }),
    },
  };
}

/**
 * The chart values with every string double-quoted: a name such as `yes`, `0123` or `a: b` would otherwise reach
 * Kubernetes (YAML 1.1) as a boolean, a number or a broken mapping; inside double quotes no character means anything.
 */
function quoteStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    return scalar;
  }
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, nested]) => [key, quoteStrings(nested)]));
}

/** A Flux HelmRepository and HelmRelease that install the agent, as one multi-document YAML file. */
export function fluxManifest(target: InstallationTarget): string {
  const documents = [
    {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: AGENT_CHART.repositoryName, namespace: AGENT_CHART.namespace },
      spec: { interval: '1h', url: AGENT_CHART.repositoryUrl },
    },
    {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: AGENT_CHART.release, namespace: AGENT_CHART.namespace },
      spec: {
        interval: '10m',
        chart: { spec: { chart: AGENT_CHART.chart, sourceRef: { kind: 'HelmRepository', name: AGENT_CHART.repositoryName } } },
        values: quoteStrings(chartValues(target)),
      },
    },
  ];
  return documents.map((document) => stringify(document, { lineWidth: 0 })).join('---\n');
}

/** Quotes a word for a POSIX shell: everything inside single quotes is literal except the quote itself. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Helm's --set reads a backslash as escaping the next character, splits values on commas and takes a value that
 * starts with `{` as a list, so those three are escaped before the shell quoting.
 */
function helmValue(value: string): string {
  return value.replace(/[\\,]/g, (character) => `\\${character}`).replace(/^\{/, '\\{');
}

type Leaf = string | boolean;

function flatten(prefix: string, value: unknown): [string, Leaf][] {
  if (typeof value === 'string' || typeof value === 'boolean') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, nested]) => flatten(prefix === '' ? key : `${prefix}.${key}`, nested));
}

/** The helm commands that add the chart repository and install the agent with its values. */
export function helmCommand(target: InstallationTarget): string {
  const values = flatten('', chartValues(target)).map(([key, value]) =>
    // Strings go through --set-string so that a name such as "true" or "0123" stays a string.
    typeof value === 'boolean' ? `  --set ${key}=${String(value)}` : `  --set-string ${key}=${shellQuote(helmValue(value))}`,
  );
  return [
    `helm repo add ${AGENT_CHART.repositoryName} ${AGENT_CHART.repositoryUrl}`,
    'helm repo update',
    [
      `helm install ${AGENT_CHART.release} ${AGENT_CHART.repositoryName}/${AGENT_CHART.chart}`,
      `  -n ${AGENT_CHART.namespace} --create-namespace`,
      ...values,
    ].join(' \\\n'),
  ].join('\n');
}
