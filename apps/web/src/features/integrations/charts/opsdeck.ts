import { JSON_SCHEMA_DIALECT, KUBERNETES_NAME_PATTERN, OPSDECK_CHART_REPOSITORY, secretKeyRefSchema, type ChartDefinition } from './chart-definition';

/** Values of the product's own chart, opsdeck 0.1.0: the server itself, with an embedded or external database. */
export const OPSDECK_CHART: ChartDefinition = {
  label: 'Opsdeck',
  description: 'This console in another cluster: the server, its database and ingress',
  chart: 'opsdeck',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    properties: {
      image: {
        type: 'object',
        additionalProperties: false,
        properties: {
          repository: { type: 'string', minLength: 1, default: 'ghcr.io/opsdeck/opsdeck' },
          tag: { type: 'string', description: 'The image tag; the chart version by default', pattern: '^[\\w][\\w.-]{0,127}$' },
          pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'], default: 'IfNotPresent' },
        },
      },
      replicas: { type: 'integer', description: 'Server processes behind the service', minimum: 1, maximum: 20, default: 1 },
      database: {
        type: 'object',
        description: 'An external PostgreSQL (15 or newer); without it the server keeps an embedded database on its volume',
        additionalProperties: false,
        required: ['url'],
        properties: { url: secretKeyRefSchema('The DATABASE_URL, postgres://user:password@host:5432/db') },
      },
      persistence: {
        type: 'object',
        additionalProperties: false,
        properties: {
          size: { type: 'string', pattern: '^[0-9]+(Mi|Gi|Ti)$', default: '10Gi' },
          storageClass: { type: 'string', minLength: 1 },
        },
      },
      ingress: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', default: false },
          className: { type: 'string', minLength: 1 },
          host: { type: 'string', description: 'The host name the console answers on', pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?\\.)+[a-z]{2,}$' },
          tls: {
            type: 'object',
            additionalProperties: false,
            properties: {
              enabled: { type: 'boolean', default: false },
              secretName: { type: 'string', maxLength: 253, pattern: KUBERNETES_NAME_PATTERN },
            },
            if: { properties: { enabled: { const: true } }, required: ['enabled'] },
            then: { required: ['secretName'] },
          },
        },
        if: { properties: { enabled: { const: true } }, required: ['enabled'] },
        then: { required: ['host'] },
      },
    },
    // The embedded database lives in one process's volume: more than one replica needs the external database.
    if: { not: { required: ['database'] } },
    then: { properties: { replicas: { maximum: 1 } } },
  },
  defaultValues: {
    image: { repository: 'ghcr.io/opsdeck/opsdeck', tag: '0.1.0', pullPolicy: 'IfNotPresent' },
    replicas: 1,
    persistence: { size: '10Gi' },
    ingress: { enabled: false, host: 'opsdeck.example.com', tls: { enabled: false } },
  },
};
