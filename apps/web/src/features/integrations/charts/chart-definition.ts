import type { JsonSchema } from '@/components/code-editor/code-editor';

/**
 * Where the product's charts are published: one Helm repository for all of them (the agent's chart lives there too).
 * The name is how `helm repo add` and the Flux HelmRepository refer to it.
 */
export const OPSDECK_CHART_REPOSITORY = { name: 'opsdeck', url: 'https://charts.opsdeck.local' } as const;

export interface ChartRepository {
  name: string;
  url: string;
}

/**
 * A Helm chart the Add Integration modal installs through GitOps, with its values schema bundled in the app rather
 * than fetched from the registry, so the editor validates the same way on a cluster with no way out (air-gapped).
 * Each schema belongs to one chart version: a new chart version ships with its schema in the same release.
 */
export interface ChartDefinition {
  /** What the modal's option says: 'AWS', 'Kubernetes'. */
  label: string;
  description: string;
  /** The chart's name in the repository. */
  chart: string;
  /** The chart version the values schema describes, and the version the generated install pins. */
  version: string;
  repository: ChartRepository;
  /** What the release is called unless the user says otherwise. */
  defaultReleaseName: string;
  /** JSON Schema (draft 2020-12) of the chart's values. */
  valuesSchema: JsonSchema;
  /** The values the editor starts with: the chart's defaults, and examples where the chart needs the user's own. */
  defaultValues: Readonly<Record<string, unknown>>;
}

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A Kubernetes object name (RFC 1123 subdomain, as Kubernetes checks it). */
export const KUBERNETES_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** A namespace name (RFC 1123 label). */
export const NAMESPACE_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

export function namespaceListSchema(description: string): JsonSchema {
  return { type: 'array', description, uniqueItems: true, items: { type: 'string', maxLength: 63, pattern: NAMESPACE_PATTERN } };
}

/**
 * A value taken from a Kubernetes Secret, never written into the values: the chart mounts the secret's key. This is
 * how every chart here asks for credentials, so a manifest committed to git holds no secret.
 */
export function secretKeyRefSchema(description: string): JsonSchema {
  return {
    type: 'object',
    description,
    additionalProperties: false,
    required: ['valueFrom'],
    properties: {
      valueFrom: {
        type: 'object',
        additionalProperties: false,
        required: ['secretKeyRef'],
        properties: {
          secretKeyRef: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'key'],
            properties: {
              name: { type: 'string', description: 'The Secret, in the release namespace', maxLength: 253, pattern: KUBERNETES_NAME_PATTERN },
              key: { type: 'string', description: 'The key inside the Secret', minLength: 1, pattern: '^[-._a-zA-Z0-9]+$' },
            },
          },
        },
      },
    },
  };
}

export function secretKeyRef(name: string, key: string): Record<string, unknown> {
  return { valueFrom: { secretKeyRef: { name, key } } };
}

/** Spec 001 §9: the scrape interval choices, 30m by default. */
export const SCRAPE_INTERVALS = ['1m', '5m', '10m', '30m', '1h', '2h', '6h', '12h', '24h'] as const;
export const DEFAULT_SCRAPE_INTERVAL = '30m';

export function scrapeIntervalSchema(description: string): JsonSchema {
  return { type: 'string', description, enum: [...SCRAPE_INTERVALS], default: DEFAULT_SCRAPE_INTERVAL };
}

/** A scraper schedule as the scheduler reads it: `@every <duration>`, a named schedule or a five-field cron line. */
export const SCHEDULE_PATTERN = '^(@every ([0-9]+(ms|s|m|h))+|@(yearly|annually|monthly|weekly|daily|midnight|hourly)|(\\S+\\s+){4}\\S+)$';

/** An age as retention rules write it: a number and a unit, such as 7d or 12h. */
export const AGE_PATTERN = '^[0-9]+(s|m|h|d|w|y)$';
