import { JSON_SCHEMA_DIALECT, OPSDECK_CHART_REPOSITORY, SCHEDULE_PATTERN, secretKeyRefSchema, type ChartDefinition } from './chart-definition';

/** Values of opsdeck-prometheus 0.1.0: health checks that run PromQL queries against one Prometheus. */
export const OPSDECK_PROMETHEUS_CHART: ChartDefinition = {
  label: 'Prometheus',
  description: 'Health checks from PromQL queries, and alerts as check results',
  chart: 'opsdeck-prometheus',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck-prometheus',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck-prometheus 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', description: 'The Prometheus (or Thanos, Mimir) base URL', pattern: '^https?://[^\\s/$.?#][^\\s]*$' },
      auth: {
        type: 'object',
        description: 'How the checks sign in; none by default',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { enum: ['none', 'basic', 'bearer'] },
          username: { type: 'string', minLength: 1 },
          password: secretKeyRefSchema('The basic auth password'),
          token: secretKeyRefSchema('The bearer token'),
        },
        allOf: [
          { if: { properties: { type: { const: 'basic' } } }, then: { required: ['username', 'password'] } },
          { if: { properties: { type: { const: 'bearer' } } }, then: { required: ['token'] } },
        ],
      },
      schedule: { type: 'string', description: 'When the queries run', pattern: SCHEDULE_PATTERN, default: '@every 5m' },
      queries: {
        type: 'array',
        description: 'Each query is a check: healthy while the expression holds',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'query'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            query: { type: 'string', description: 'A PromQL expression', minLength: 1 },
            test: { type: 'string', description: 'A CEL expression over the results; by default, healthy when the query returns nothing' },
          },
        },
      },
      alerts: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', description: 'Show firing alerts as failing checks', default: true },
          ignore: { type: 'array', description: 'Alert names never shown', items: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
  defaultValues: {
    url: 'http://prometheus-operated.monitoring.svc:9090',
    auth: { type: 'none' },
    schedule: '@every 5m',
    queries: [{ name: 'targets down', query: 'up == 0' }],
    alerts: { enabled: true, ignore: ['Watchdog', 'InfoInhibitor'] },
  },
};
