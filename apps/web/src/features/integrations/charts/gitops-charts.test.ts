import { describe, expect, it } from 'vitest';
import { schemaCheck } from '@/components/code-editor/text-diagnostics';
import type { ChartDefinition } from './chart-definition';
import { GITOPS_CHARTS } from './gitops-charts';
import { OPSDECK_CHART } from './opsdeck';
import { OPSDECK_AWS_CHART } from './opsdeck-aws';
import { OPSDECK_AZURE_CHART } from './opsdeck-azure';
import { OPSDECK_FLUX_CHART } from './opsdeck-flux';
import { OPSDECK_KUBERNETES_CHART } from './opsdeck-kubernetes';
import { OPSDECK_PROMETHEUS_CHART } from './opsdeck-prometheus';

function errorsOf(chart: ChartDefinition, values: unknown) {
  return schemaCheck(chart.valuesSchema)(values);
}

/** For each chart, values a user could plausibly write that its schema must refuse. */
const REFUSED: readonly [ChartDefinition, string, Record<string, unknown>][] = [
  [OPSDECK_AWS_CHART, 'no region', { ...OPSDECK_AWS_CHART.defaultValues, regions: [] }],
  [OPSDECK_AWS_CHART, 'an access key without its secret key', { regions: ['eu-west-1'], credentials: { accessKey: { valueFrom: { secretKeyRef: { name: 'aws', key: 'id' } } } } }],
  [OPSDECK_AWS_CHART, 'an access key written in clear', { regions: ['eu-west-1'], credentials: { accessKey: 'AKIA...', secretKey: 'shh' } }],
  [OPSDECK_AZURE_CHART, 'a tenant that is not a uuid', { ...OPSDECK_AZURE_CHART.defaultValues, tenantID: 'contoso' }],
  [OPSDECK_AZURE_CHART, 'no client secret', { ...OPSDECK_AZURE_CHART.defaultValues, clientSecret: undefined }],
  [OPSDECK_PROMETHEUS_CHART, 'basic auth without a password', { ...OPSDECK_PROMETHEUS_CHART.defaultValues, auth: { type: 'basic', username: 'ops' } }],
  [OPSDECK_PROMETHEUS_CHART, 'a URL without a scheme', { url: 'prometheus:9090' }],
  [OPSDECK_FLUX_CHART, 'a namespace Kubernetes refuses', { ...OPSDECK_FLUX_CHART.defaultValues, namespaces: ['Flux_System'] }],
  [OPSDECK_FLUX_CHART, 'a kind Flux does not have', { kinds: ['Deployment'] }],
  [OPSDECK_KUBERNETES_CHART, 'no cluster name', { ...OPSDECK_KUBERNETES_CHART.defaultValues, clusterName: undefined }],
  [OPSDECK_KUBERNETES_CHART, 'a schedule the scheduler cannot read', { clusterName: 'prod', scraper: { schedule: 'every 30 minutes' } }],
  [OPSDECK_CHART, 'three replicas on the embedded database', { ...OPSDECK_CHART.defaultValues, replicas: 3 }],
  [OPSDECK_CHART, 'an ingress without a host', { ingress: { enabled: true } }],
];

describe('GitOps chart values schemas', () => {
  it('offers AWS, Azure, Prometheus, Flux, Kubernetes and Opsdeck, each pinned to a chart version', () => {
    expect(GITOPS_CHARTS.map((chart) => chart.label)).toEqual(['AWS', 'Azure', 'Prometheus', 'Flux', 'Kubernetes', 'Opsdeck']);
    expect(GITOPS_CHARTS.map((chart) => chart.chart)).toEqual(['opsdeck-aws', 'opsdeck-azure', 'opsdeck-prometheus', 'opsdeck-flux', 'opsdeck-kubernetes', 'opsdeck']);
    for (const chart of GITOPS_CHARTS) expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each(GITOPS_CHARTS.map((chart) => [chart.chart, chart] as const))('accepts the default values of %s', (_name, chart) => {
    expect(errorsOf(chart, chart.defaultValues)).toEqual([]);
  });

  it.each(REFUSED.map(([chart, what, values]) => [chart.chart, what, chart, JSON.parse(JSON.stringify(values)) as unknown] as const))(
    'refuses %s values with %s',
    (_name, _what, chart, values) => {
      expect(errorsOf(chart, values)).not.toEqual([]);
    },
  );

  it('refuses a property no chart knows', () => {
    for (const chart of GITOPS_CHARTS) expect(errorsOf(chart, { ...chart.defaultValues, replicaCount: 2 })).not.toEqual([]);
  });

  it('accepts more replicas once an external database is given', () => {
    const values = { ...OPSDECK_CHART.defaultValues, replicas: 3, database: { url: { valueFrom: { secretKeyRef: { name: 'opsdeck-db', key: 'url' } } } } };
    expect(errorsOf(OPSDECK_CHART, values)).toEqual([]);
  });
});
