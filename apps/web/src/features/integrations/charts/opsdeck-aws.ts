import { DEFAULT_SCRAPE_INTERVAL, JSON_SCHEMA_DIALECT, OPSDECK_CHART_REPOSITORY, scrapeIntervalSchema, secretKeyRefSchema, type ChartDefinition } from './chart-definition';

/** Values of opsdeck-aws 0.1.0: a catalog scraper of one AWS account, across regions. */
export const OPSDECK_AWS_CHART: ChartDefinition = {
  label: 'AWS',
  description: 'Scrapes an AWS account (EC2, EKS, RDS, IAM, …) into the catalog',
  chart: 'opsdeck-aws',
  version: '0.1.0',
  repository: OPSDECK_CHART_REPOSITORY,
  defaultReleaseName: 'opsdeck-aws',
  valuesSchema: {
    $schema: JSON_SCHEMA_DIALECT,
    title: 'opsdeck-aws 0.1.0 values',
    type: 'object',
    additionalProperties: false,
    required: ['regions'],
    properties: {
      regions: {
        type: 'array',
        description: 'The regions scraped',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', pattern: '^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]$' },
      },
      assumeRole: {
        type: 'string',
        description: 'A role the scraper assumes, for an account other than its own',
        pattern: '^arn:aws(-[a-z]+)?:iam::[0-9]{12}:role/[\\w+=,.@/-]+$',
      },
      credentials: {
        type: 'object',
        description: 'An access key; without it the pod uses its service account role (IRSA) or the node role',
        additionalProperties: false,
        required: ['accessKey', 'secretKey'],
        properties: {
          accessKey: secretKeyRefSchema('The access key id'),
          secretKey: secretKeyRefSchema('The secret access key'),
        },
      },
      serviceAccount: {
        type: 'object',
        additionalProperties: false,
        properties: {
          annotations: { type: 'object', description: 'Such as eks.amazonaws.com/role-arn for IRSA', additionalProperties: { type: 'string' } },
        },
      },
      scrapeInterval: scrapeIntervalSchema('How often the account is scraped'),
      include: {
        type: 'array',
        description: 'Only these resource kinds; empty means all the scraper knows',
        uniqueItems: true,
        items: { type: 'string', enum: ['ec2', 'eks', 'rds', 'lambda', 's3', 'iam', 'vpc', 'ebs', 'elb', 'route53', 'sqs', 'sns', 'cost'] },
      },
      costReporting: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', default: false },
          s3BucketPath: { type: 'string', description: 'Where the cost and usage report lands', pattern: '^s3://.+' },
          table: { type: 'string', description: 'The Athena table of the report', minLength: 1 },
        },
        if: { properties: { enabled: { const: true } }, required: ['enabled'] },
        then: { required: ['s3BucketPath', 'table'] },
      },
    },
  },
  defaultValues: {
    regions: ['us-east-1'],
    scrapeInterval: DEFAULT_SCRAPE_INTERVAL,
    include: [],
    costReporting: { enabled: false },
  },
};
