import { DEFAULT_SCRAPE_INTERVAL, JSON_SCHEMA_DIALECT, OPSDECK_CHART_REPOSITORY, scrapeIntervalSchema, secretKeyRef, secretKeyRefSchema, type ChartDefinition } from './chart-definition';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** An id the user must replace: it has the right shape, so the example validates, and names no real tenant. */
const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

/** Values of opsdeck-azure 0.1.0: a catalog scraper of one Azure subscription through a service principal. */
export const OPSDECK_AZURE_CHART: ChartDefinition = {
  label: 'Azure',
  description: 'Scrapes an Azure subscription (VMs, AKS, databases, …) into the catalog',
  chart: 'opsdeck-azure',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck-azure',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck-azure 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    required: ['tenantID', 'subscriptionID', 'clientID', 'clientSecret'],
    properties: {
      tenantID: { type: 'string', description: 'The Entra ID (Azure AD) tenant', pattern: UUID },
      subscriptionID: { type: 'string', description: 'The subscription scraped', pattern: UUID },
      clientID: { type: 'string', description: 'The service principal (app registration) the scraper signs in as', pattern: UUID },
      clientSecret: secretKeyRefSchema("The service principal's client secret"),
      scrapeInterval: scrapeIntervalSchema('How often the subscription is scraped'),
      exclude: {
        type: 'object',
        additionalProperties: false,
        properties: {
          resourceGroups: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 90 } },
          types: { type: 'array', description: 'Resource types, such as Microsoft.Network/networkWatchers', uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z.]+/[A-Za-z/]+$' } },
        },
      },
      activityLogs: { type: 'boolean', description: 'Record the activity log as catalog changes', default: true },
    },
  },
  defaultValues: {
    tenantID: PLACEHOLDER_ID,
    subscriptionID: PLACEHOLDER_ID,
    clientID: PLACEHOLDER_ID,
    clientSecret: secretKeyRef('azure-credentials', 'client-secret'),
    scrapeInterval: DEFAULT_SCRAPE_INTERVAL,
    exclude: { resourceGroups: [], types: [] },
    activityLogs: true,
  },
};
