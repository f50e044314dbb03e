import {
  AGE_PATTERN,
  JSON_SCHEMA_DIALECT,
  namespaceListSchema,
  OPSDECK_CHART_REPOSITORY,
  SCHEDULE_PATTERN,
  type ChartDefinition,
} from './chart-definition';

/** Spec 001 §9: the kubernetes scraper runs every 30 minutes unless told otherwise. */
const DEFAULT_SCHEDULE = '@every 30m';

/** Values of opsdeck-kubernetes 0.1.0: a catalog scraper of the cluster it is installed in, and its topology. */
export const OPSDECK_KUBERNETES_CHART: ChartDefinition = {
  label: 'Kubernetes',
  description: 'Scrapes the cluster into the catalog and draws its topology',
  chart: 'opsdeck-kubernetes',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck-kubernetes',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck-kubernetes 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    required: ['clusterName'],
    properties: {
      clusterName: {
        type: 'string',
        description: 'Names the cluster in the catalog (a prefix of every item it scrapes)',
        minLength: 1,
        maxLength: 63,
        pattern: '^[a-zA-Z0-9]([-._a-zA-Z0-9]*[a-zA-Z0-9])?$',
      },
      scraper: {
        type: 'object',
        additionalProperties: false,
        properties: {
          schedule: { type: 'string', description: 'When the full scrape runs', pattern: SCHEDULE_PATTERN, default: DEFAULT_SCHEDULE },
          watchEvents: { type: 'boolean', description: 'Also record changes from the cluster events as they happen', default: true },
          maxInflight: { type: 'integer', description: 'Concurrent calls to the API server', minimum: 1, maximum: 256, default: 64 },
        },
      },
      namespaces: {
        type: 'object',
        description: 'Which namespaces are scraped: all but the excluded ones unless include lists some',
        additionalProperties: false,
        properties: {
          include: namespaceListSchema('Only these namespaces; empty means every namespace'),
          exclude: namespaceListSchema('Never these namespaces'),
        },
      },
      topology: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', description: 'Create a topology of the cluster (nodes, namespaces, workloads)', default: true },
          name: { type: 'string', description: 'The topology name; the cluster name by default', minLength: 1, maxLength: 255 },
        },
      },
      retention: {
        type: 'object',
        description: 'How long scraped changes and deleted items are kept',
        additionalProperties: false,
        properties: {
          changes: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              properties: {
                name: { type: 'string', description: 'The change type, such as diff or PullSucceeded', minLength: 1 },
                age: { type: 'string', pattern: AGE_PATTERN },
                count: { type: 'integer', minimum: 1 },
              },
              anyOf: [{ required: ['age'] }, { required: ['count'] }],
            },
          },
          types: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              properties: {
                name: { type: 'string', description: 'A catalog type, such as Kubernetes::Pod', pattern: '^[A-Za-z0-9]+::[A-Za-z0-9*]+$' },
                createdAge: { type: 'string', pattern: AGE_PATTERN },
                updatedAge: { type: 'string', pattern: AGE_PATTERN },
                deletedAge: { type: 'string', pattern: AGE_PATTERN },
              },
            },
          },
        },
      },
    },
  },
  defaultValues: {
    clusterName: 'my-cluster',
    scraper: { schedule: DEFAULT_SCHEDULE, watchEvents: true, maxInflight: 64 },
    namespaces: { include: [], exclude: ['kube-system', 'kube-public'] },
    topology: { enabled: true },
    retention: {
      changes: [{ name: 'diff', age: '30d' }],
      types: [{ name: 'Kubernetes::Pod', deletedAge: '7d' }],
    },
  },
};
