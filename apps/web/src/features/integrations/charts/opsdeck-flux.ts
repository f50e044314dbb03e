import { DEFAULT_SCRAPE_INTERVAL, JSON_SCHEMA_DIALECT, namespaceListSchema, OPSDECK_CHART_REPOSITORY, scrapeIntervalSchema, type ChartDefinition } from './chart-definition';

const FLUX_KINDS = ['GitRepository', 'OCIRepository', 'HelmRepository', 'HelmChart', 'HelmRelease', 'Kustomization'] as const;

/** Values of opsdeck-flux 0.1.0: Flux's sources and releases in the catalog, and a topology of what they deploy. */
export const OPSDECK_FLUX_CHART: ChartDefinition = {
  label: 'Flux',
  description: "Flux sources, Kustomizations and HelmReleases in the catalog, with the objects they apply",
  chart: 'opsdeck-flux',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck-flux',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck-flux 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    properties: {
      namespaces: { ...namespaceListSchema('Where Flux objects are looked for; empty means every namespace') },
      kinds: {
        type: 'array',
        description: 'The Flux kinds scraped',
        minItems: 1,
        uniqueItems: true,
        items: { enum: [...FLUX_KINDS] },
      },
      scrapeInterval: scrapeIntervalSchema('How often Flux objects are scraped'),
      topology: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', description: 'Draw a topology of Kustomizations and HelmReleases', default: true },
          name: { type: 'string', minLength: 1, maxLength: 255, default: 'flux' },
        },
      },
      playbooks: {
        type: 'object',
        additionalProperties: false,
        properties: { enabled: { type: 'boolean', description: 'Add reconcile and suspend/resume playbooks', default: true } },
      },
    },
  },
  defaultValues: {
    namespaces: ['flux-system'],
    kinds: [...FLUX_KINDS],
    scrapeInterval: DEFAULT_SCRAPE_INTERVAL,
    topology: { enabled: true, name: 'flux' },
    playbooks: { enabled: true },
  },
};
