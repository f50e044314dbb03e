import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { OPSDECK_KUBERNETES_CHART } from './charts/opsdeck-kubernetes';
import {
  DEFAULT_CHART_INTERVAL,
  DEFAULT_CHART_NAMESPACE,
  fluxManifest,
  helmCommand,
  intervalProblem,
  namespaceProblem,
  releaseNameProblem,
  type ChartInstall,
} from './helm-install';

const install: ChartInstall = {
  chart: OPSDECK_KUBERNETES_CHART,
  releaseName: 'opsdeck-kubernetes',
  namespace: DEFAULT_CHART_NAMESPACE,
  interval: DEFAULT_CHART_INTERVAL,
  values: { clusterName: 'prod', topology: { enabled: true }, labels: { answer: 'yes', zip: '0123' } },
};

function documents(text: string): unknown[] {
  return parseAllDocuments(text).map((document) => {
    expect(document.errors).toEqual([]);
    return document.toJS() as unknown;
  });
}

describe('Flux manifest generation', () => {
  it('defaults to the mission-control namespace and a 30m interval (spec 001 §9)', () => {
    expect(DEFAULT_CHART_NAMESPACE).toBe('mission-control');
    expect(DEFAULT_CHART_INTERVAL).toBe('30m');
  });

  it('writes a HelmRepository of the chart repository that parses as YAML', () => {
    const [repository] = documents(fluxManifest(install));
    expect(repository).toEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'HelmRepository',
      metadata: { name: 'opsdeck', namespace: 'mission-control' },
      spec: { interval: '30m', url: 'https://charts.opsdeck.local' },
    });
  });

  it('writes a HelmRelease pinning the chart version, pointing at the repository and carrying the values', () => {
    const [, release] = documents(fluxManifest(install));
    expect(release).toEqual({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'opsdeck-kubernetes', namespace: 'mission-control' },
      spec: {
        interval: '30m',
        chart: { spec: { chart: 'opsdeck-kubernetes', version: '0.1.0', sourceRef: { kind: 'HelmRepository', name: 'opsdeck', namespace: 'mission-control' } } },
        values: install.values,
      },
    });
  });

  it('quotes strings that YAML 1.1 would read as booleans or numbers', () => {
    const text = fluxManifest(install);
    expect(text).toContain('answer: "yes"');
    expect(text).toContain('zip: "0123"');
  });

  it('uses the release name, namespace and interval given', () => {
    const [repository, release] = documents(fluxManifest({ ...install, releaseName: 'k8s', namespace: 'ops', interval: '1h' })) as {
      metadata: { name: string; namespace: string };
      spec: { interval: string };
    }[];
    expect(repository?.metadata.namespace).toBe('ops');
    expect(release?.metadata).toEqual({ name: 'k8s', namespace: 'ops' });
    expect(release?.spec.interval).toBe('1h');
  });

  it('leaves values out of a release that has none', () => {
    const [, release] = documents(fluxManifest({ ...install, values: {} })) as { spec: Record<string, unknown> }[];
    expect(release?.spec).not.toHaveProperty('values');
  });
});

describe('Helm CLI command generation', () => {
  it('adds the repository, writes values.yaml and upgrades or installs the pinned chart into the namespace', () => {
    const command = helmCommand(install);
    const lines = command.split('\n');
    expect(lines[0]).toBe('helm repo add opsdeck https://charts.opsdeck.local');
    expect(lines[1]).toBe('helm repo update opsdeck');
    expect(lines[2]).toBe("cat > values.yaml <<'OPSDECK_VALUES'");
    expect(command).toContain(
      'helm upgrade --install opsdeck-kubernetes opsdeck/opsdeck-kubernetes \\\n  --version 0.1.0 \\\n  --namespace mission-control --create-namespace \\\n  -f values.yaml\n',
    );
  });

  it('puts values in the file that parse back to the editor values', () => {
    const command = helmCommand(install);
    const body = command.slice(command.indexOf("<<'OPSDECK_VALUES'\n") + "<<'OPSDECK_VALUES'\n".length, command.indexOf('\nOPSDECK_VALUES\n'));
    expect(documents(body)).toEqual([install.values]);
  });

  it('quotes a release name the shell would split', () => {
    const command = helmCommand({ ...install, releaseName: "it's" });
    expect(command).toContain(`helm upgrade --install 'it'\\''s' opsdeck/opsdeck-kubernetes`);
  });

  it('ends the values file only at its closing delimiter, even when a value holds the delimiter', () => {
    const command = helmCommand({ ...install, values: { note: 'a\nOPSDECK_VALUES\nb' } });
    expect(command.split('\n').filter((line) => line === 'OPSDECK_VALUES')).toHaveLength(1);
  });

  it('installs without -f when there are no values', () => {
    const command = helmCommand({ ...install, values: {} });
    expect(command).not.toContain('values.yaml');
    expect(command).toContain('--namespace mission-control --create-namespace\n');
  });
});

describe('install field rules', () => {
  it('takes DNS labels for the release name and namespace, with Helm’s 53-character limit on releases', () => {
    expect(releaseNameProblem('opsdeck-aws')).toBeNull();
    expect(releaseNameProblem('')).toBe('This field is required');
    expect(releaseNameProblem('Opsdeck')).not.toBeNull();
    expect(releaseNameProblem('a'.repeat(54))).toBe('Must be at most 53 characters');
    expect(namespaceProblem('mission-control')).toBeNull();
    expect(namespaceProblem('mission_control')).not.toBeNull();
  });

  it('takes Go durations for the interval', () => {
    for (const interval of ['30m', '1h', '1h30m', '90s']) expect(intervalProblem(interval)).toBeNull();
    for (const interval of ['30', 'thirty minutes', '']) expect(intervalProblem(interval)).not.toBeNull();
  });
});
