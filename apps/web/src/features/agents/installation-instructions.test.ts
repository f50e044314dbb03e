import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { AGENT_CHART, fluxManifest, helmCommand, type InstallationTarget } from './installation-instructions';

const target: InstallationTarget = {
  serverUrl: 'https://ops.example.test',
  agentName: "o'brien, eu",
  accessToken: 'opsdeck_agent_abc-DEF_123',
  kubernetes: { enabled: true, interval: '30m' },
  pushTelemetry: { enabled: false, topologyName: null },
};

describe('installation instructions', () => {
  it('builds a Flux HelmRepository and HelmRelease whose values carry the server, the agent name and the token', () => {
    const documents = parseAllDocuments(fluxManifest(target)).map((document) => document.toJS() as Record<string, unknown>);
    expect(documents.map((document) => document.kind)).toEqual(['HelmRepository', 'HelmRelease']);
    expect(documents[1]).toMatchObject({
      metadata: { name: AGENT_CHART.release, namespace: AGENT_CHART.namespace },
      spec: {
        chart: { spec: { chart: AGENT_CHART.chart, sourceRef: { kind: 'HelmRepository', name: AGENT_CHART.repositoryName } } },
        values: {
          upstream: { host: 'https://ops.example.test', agentName: "o'brien, eu", token: 'opsdeck_agent_abc-DEF_123' },
          kubernetes: { enabled: true, interval: '30m' },
          pushTelemetry: { enabled: false },
        },
      },
    });
  });

  it('quotes the agent name for the shell and escapes the commas helm would split on', () => {
    const command = helmCommand(target);
    expect(command).toContain(`helm install ${AGENT_CHART.release} ${AGENT_CHART.repositoryName}/${AGENT_CHART.chart}`);
    expect(command).toContain(`--set-string upstream.agentName='o'\\''brien\\, eu'`);
    expect(command).toContain("--set-string upstream.token='opsdeck_agent_abc-DEF_123'");
    expect(command).toContain("--set-string upstream.host='https://ops.example.test'");
    expect(command).toContain('--set kubernetes.enabled=true');
    expect(command).toContain("--set-string kubernetes.interval='30m'");
    expect(command).not.toContain('topologyName');
  });

  it('passes the topology name only when push telemetry names one', () => {
    const command = helmCommand({ ...target, pushTelemetry: { enabled: true, topologyName: 'edge' } });
    expect(command).toContain('--set pushTelemetry.enabled=true');
    expect(command).toContain("--set-string pushTelemetry.topologyName='edge'");
  });
});
