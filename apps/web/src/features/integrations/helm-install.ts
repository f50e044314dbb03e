import { Scalar, stringify } from 'yaml';
import type { ChartDefinition } from './charts/chart-definition';

/** Spec 001 §9: a chart is installed into mission-control and reconciled every 30 minutes unless told otherwise. */
export const DEFAULT_CHART_NAMESPACE = 'mission-control';
export const DEFAULT_CHART_INTERVAL = '30m';

export interface ChartInstall {
  chart: Pick<ChartDefinition, 'chart' | 'version' | 'repository'>;
  releaseName: string;
  namespace: string;
  /** How often Flux reconciles the release, as a Go duration. */
  interval: string;
  values: Readonly<Record<string, unknown>>;
}

/** Helm refuses release names longer than 53 characters: it appends suffixes to them for the objects it makes. */
const RELEASE_NAME_MAX = 53;
const NAMESPACE_MAX = 63;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A Go duration as Flux parses `interval`: 30m, 1h30m, 90s. */
const GO_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

export function releaseNameProblem(name: string): string | null {
  if (name === '') return 'This field is required';
  if (name.length > RELEASE_NAME_MAX) return `Must be at most ${RELEASE_NAME_MAX} characters`;
  return DNS_LABEL.test(name) ? null : 'Use lowercase letters, digits and -, starting and ending with a letter or digit';
}

export function namespaceProblem(namespace: string): string | null {
  if (namespace === '') return 'This field is required';
  if (namespace.length > NAMESPACE_MAX) return `Must be at most ${NAMESPACE_MAX} characters`;
  return DNS_LABEL.test(namespace) ? null : 'Use lowercase letters, digits and -, starting and ending with a letter or digit';
}

export function intervalProblem(interval: string): string | null {
  if (interval === '') return 'This field is required';
  return GO_DURATION.test(interval) ? null : 'Use a duration such as 30m, 1h or 1h30m';
}

/**
 * YAML as Kubernetes reads it. Its parser follows YAML 1.1, where a bare yes, on or 0123 is not a string: writing
 * in 1.1 quotes every such string, so a value means the same to Flux as it did in the editor.
 */
function kubernetesYaml(document: unknown): string {
  return stringify(document, { version: '1.1', lineWidth: 0 });
}

/** Names in metadata are always strings: quoted, so a release called `true` or `1` stays one. */
function quoted(value: string): Scalar {
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  return scalar;
}

/**
 * A Flux HelmRepository for the chart's repository and a HelmRelease of the chart with the given values, as one
 * multi-document YAML file to commit to the repository Flux reconciles.
 */
export function fluxManifest({ chart, releaseName, namespace, interval, values }: ChartInstall): string {
  const repository = {
    apiVersion: 'source.toolkit.fluxcd.io/v1',
    kind: 'HelmRepository',
    metadata: { name: quoted(chart.repository.name), namespace: quoted(namespace) },
    spec: { interval: quoted(interval), url: chart.repository.url },
  };
  const release = {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: quoted(releaseName), namespace: quoted(namespace) },
    spec: {
      interval: quoted(interval),
      chart: {
        spec: {
          chart: chart.chart,
          version: quoted(chart.version),
          sourceRef: { kind: 'HelmRepository', name: quoted(chart.repository.name), namespace: quoted(namespace) },
        },
      },
      ...(Object.keys(values).length === 0 ? {} : { values }),
    },
  };
  return [repository, release].map(kubernetesYaml).join('---\n');
}

/** Quotes a word for a POSIX shell when it needs it: inside single quotes only the quote itself is special. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

const VALUES_FILE = 'values.yaml';
const HEREDOC_DELIMITER = 'OPSDECK_VALUES';

/** A here-document delimiter no line of the text equals, so the text reaches the file as written. */
function delimiterFor(text: string): string {
  const lines = new Set(text.split('\n'));
  let delimiter = HEREDOC_DELIMITER;
  while (lines.has(delimiter)) delimiter = `${delimiter}_`;
  return delimiter;
}

/**
 * The Helm CLI way to the same release: add the repository, write the values to values.yaml (a quoted here-document,
 * so the shell expands nothing in them) and upgrade-or-install the pinned chart version with them.
 */
export function helmCommand({ chart, releaseName, namespace, values }: Omit<ChartInstall, 'interval'>): string {
  const repository = shellWord(chart.repository.name);
  const hasValues = Object.keys(values).length > 0;
  const lines = [`helm repo add ${repository} ${shellWord(chart.repository.url)}`, `helm repo update ${repository}`];
  if (hasValues) {
    const text = kubernetesYaml(values);
    const delimiter = delimiterFor(text);
    lines.push(`cat > ${VALUES_FILE} <<'${delimiter}'\n${text}${delimiter}`);
  }
  const install = [
    `helm upgrade --install ${shellWord(releaseName)} ${repository}/${shellWord(chart.chart)}`,
    `  --version ${shellWord(chart.version)}`,
    `  --namespace ${shellWord(namespace)} --create-namespace`,
    ...(hasValues ? [`  -f ${VALUES_FILE}`] : []),
  ];
  lines.push(install.join(' \\\n'));
  return `${lines.join('\n')}\n`;
}
