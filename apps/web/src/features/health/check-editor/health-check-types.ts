import { can, isRedisAddress, REDIS_ADDRESS_MESSAGE } from '@opsdeck/shared';

/** Schedule choices of spec 001 §9 (spec 002 §2.2 lists the same without @every 8h). */
export const SCHEDULE_CHOICES = ['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@every 8h', '@daily', '@weekly'] as const;
export const RESPONSE_CODES = [200, 201, 202, 204, 301, 302, 401, 404, 500, 502, 503] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
/** Spec 001 §9: a body is sent only with these methods. */
export const METHODS_WITH_BODY: readonly string[] = ['POST', 'PUT'];

export type CheckFieldInput = 'text' | 'textarea' | 'number' | 'select' | 'codes' | 'list' | 'password' | 'connection';
export type CheckFieldSection = 'main' | 'advanced';

export interface CheckFieldDefinition {
  /** Where the value sits in the check's spec entry; also names the form field (joined with '_'). */
  specPath: readonly string[];
  label: string;
  input: CheckFieldInput;
  section: CheckFieldSection;
  required?: boolean;
  /** Required while this other field (by its form name) is empty: a URL is needed unless a connection supplies it. */
  requiredUnless?: string;
  min?: number;
  defaultValue?: string | number;
  options?: readonly string[];
  placeholder?: string;
  /** A rule beyond required: returns the message when the value is wrong. */
  validate?: (value: string) => string | null;
  visibleWhen?: { field: string; oneOf: readonly string[] };
  /** For a connection field: the type of the stored connections it suggests; all of them when absent. */
  connectionType?: string;
  /** The server stores the value sealed, as it does passwords: the form shows only that it is set (ADR 0043). */
  sealed?: boolean;
}

export interface CheckTypeChoice {
  /** The key of the check list in a canary spec. */
  key: string;
  label: string;
  /** Checks with a form; the others are written as YAML. */
  fields?: readonly CheckFieldDefinition[];
}

const threshold = (section: CheckFieldSection = 'advanced'): CheckFieldDefinition => ({
  specPath: ['thresholdMillis'],
  label: 'Threshold (ms)',
  input: 'number',
  section,
  min: 0,
});

const basicAuth: CheckFieldDefinition[] = [
  { specPath: ['authentication', 'username'], label: 'Username', input: 'text', section: 'advanced' },
  { specPath: ['authentication', 'password'], label: 'Password', input: 'password', section: 'advanced' },
];

const connection = (connectionType?: string): CheckFieldDefinition => ({
  specPath: ['connection'],
  label: 'Connection',
  input: 'connection',
  section: 'main',
  placeholder: 'connection://namespace/name',
  ...(connectionType === undefined ? {} : { connectionType }),
});

const HTTP_FIELDS: CheckFieldDefinition[] = [
  { specPath: ['url'], label: 'URL', input: 'text', section: 'main', required: true, placeholder: 'https://example.com/health' },
  connection('http'),
  { specPath: ['method'], label: 'Method', input: 'select', section: 'main', options: HTTP_METHODS, defaultValue: 'GET' },
  { specPath: ['body'], label: 'Body', input: 'textarea', section: 'main', sealed: true, visibleWhen: { field: 'method', oneOf: METHODS_WITH_BODY } },
  { specPath: ['responseCodes'], label: 'Response Codes', input: 'codes', section: 'main' },
  { specPath: ['responseContent'], label: 'Response Content', input: 'text', section: 'main' },
  { specPath: ['maxSSLExpiry'], label: 'Max SSL Expiry (days)', input: 'number', section: 'advanced', min: 0 },
  threshold(),
  ...basicAuth,
];

/**
 * The check-type choices of spec 002 §2.2. The eight of spec 001 §2.7 (HTTP, alert source, search index, shell
 * script, folder, ping, tcp, redis) have forms; the rest are written in the YAML editor.
 */
export const CHECK_TYPE_CHOICES: readonly CheckTypeChoice[] = [
  { key: 'http', label: 'HTTP', fields: HTTP_FIELDS },
  {
    key: 'exec',
    label: 'Exec',
    fields: [{ specPath: ['script'], label: 'Script', input: 'textarea', section: 'main', required: true, placeholder: '#!/bin/sh\necho ok' }, threshold()],
  },
  {
    key: 'alertmanager',
    label: 'Alert Manager',
    fields: [
      { specPath: ['url'], label: 'URL', input: 'text', section: 'main', requiredUnless: 'connection', placeholder: 'http://alertmanager:9093' },
      connection(),
      { specPath: ['alerts'], label: 'Alerts', input: 'list', section: 'main', placeholder: 'KubePodCrashLooping, TargetDown' },
      { specPath: ['ignore'], label: 'Ignore', input: 'list', section: 'main' },
      threshold(),
    ],
  },
  {
    key: 'elasticsearch',
    label: 'Elasticsearch',
    fields: [
      { specPath: ['url'], label: 'URL', input: 'text', section: 'main', requiredUnless: 'connection', placeholder: 'https://elasticsearch:9200' },
      connection('elasticsearch'),
      { specPath: ['index'], label: 'Index', input: 'text', section: 'main', required: true },
      { specPath: ['query'], label: 'Query', input: 'textarea', section: 'main' },
      { specPath: ['results'], label: 'Results', input: 'number', section: 'main', min: 0 },
      threshold(),
      ...basicAuth,
    ],
  },
  {
    key: 'redis',
    label: 'Redis',
    fields: [
      {
        specPath: ['addr'],
        label: 'Address',
        input: 'text',
        section: 'main',
        required: true,
        placeholder: 'redis:6379',
        validate: (value) => (isRedisAddress(value) ? null : REDIS_ADDRESS_MESSAGE),
      },
      { specPath: ['db'], label: 'Database', input: 'number', section: 'main', min: 0, defaultValue: 0 },
      { specPath: ['username'], label: 'Username', input: 'text', section: 'advanced' },
      { specPath: ['password'], label: 'Password', input: 'password', section: 'advanced' },
      threshold(),
    ],
  },
  { key: 'mongodb', label: 'Mongo' },
  {
    key: 'icmp',
    label: 'ICMP Ping',
    fields: [
      { specPath: ['endpoint'], label: 'Host', input: 'text', section: 'main', required: true, placeholder: 'example.com' },
      { specPath: ['packetCount'], label: 'Packet Count', input: 'number', section: 'main', min: 1 },
      { specPath: ['packetLossThreshold'], label: 'Packet Loss Threshold (%)', input: 'number', section: 'main', min: 0 },
      threshold(),
    ],
  },
  {
    key: 'tcp',
    label: 'TCP',
    fields: [{ specPath: ['endpoint'], label: 'URL', input: 'text', section: 'main', required: true, placeholder: 'host:port' }, threshold('main')],
  },
  { key: 'dns', label: 'DNS' },
  {
    key: 'folder',
    label: 'Folder',
    fields: [
      { specPath: ['path'], label: 'Path', input: 'text', section: 'main', required: true, placeholder: '/var/backups' },
      { specPath: ['minAge'], label: 'Min Age', input: 'text', section: 'main', placeholder: '1h' },
      { specPath: ['maxAge'], label: 'Max Age', input: 'text', section: 'main', placeholder: '1d' },
      { specPath: ['minCount'], label: 'Min Count', input: 'number', section: 'main', min: 0 },
      { specPath: ['maxCount'], label: 'Max Count', input: 'number', section: 'main', min: 0 },
      { specPath: ['minSize'], label: 'Min Size', input: 'text', section: 'advanced', placeholder: '10MB' },
      { specPath: ['maxSize'], label: 'Max Size', input: 'text', section: 'advanced', placeholder: '1Gi' },
      threshold(),
    ],
  },
  { key: 's3', label: 'S3' },
  { key: 'gcsBucket', label: 'GCS' },
  { key: 'sftp', label: 'SFTP' },
  { key: 'smb', label: 'SMB' },
  { key: 'ldap', label: 'LDAP' },
  { key: 'pod', label: 'Pod' },
  {
    key: 'kubernetes',
    label: 'Kubernetes',
    fields: [
      { specPath: ['kind'], label: 'Kind', input: 'text', section: 'main', required: true, placeholder: 'Pod' },
      { specPath: ['namespaceSelector', 'name'], label: 'Namespaces', input: 'text', section: 'main', placeholder: 'shop, kube-*, !kube-public' },
      { specPath: ['resource', 'name'], label: 'Names', input: 'text', section: 'main', placeholder: 'web-*' },
      { specPath: ['resource', 'labelSelector'], label: 'Label Selector', input: 'text', section: 'main', placeholder: 'app=web' },
      connection('kubernetes'),
      { specPath: ['apiVersion'], label: 'API Version', input: 'text', section: 'advanced', placeholder: 'apps/v1' },
    ],
  },
  { key: 'postgres', label: 'SQL' },
  { key: 'prometheus', label: 'Prometheus' },
  { key: 'jmeter', label: 'JMeter' },
  { key: 'junit', label: 'JUnit' },
  { key: 'azureDevops', label: 'Azure DevOps' },
  { key: 'dynatrace', label: 'Dynatrace' },
  { key: 'github', label: 'GitHub' },
  { key: 'ec2', label: 'EC2' },
  { key: 'cloudwatch', label: 'Cloud Watch' },
  { key: 'awsConfig', label: 'AWS Config' },
  { key: 'catalog', label: 'Catalog' },
  { key: 'custom', label: 'Custom' },
];

const BY_KEY = new Map(CHECK_TYPE_CHOICES.map((choice) => [choice.key, choice]));

export function checkTypeChoice(key: string): CheckTypeChoice | undefined {
  return BY_KEY.get(key);
}

export function fieldName(field: CheckFieldDefinition): string {
  return field.specPath.join('_');
}

/** Types whose checks run code on the server: choosing or editing one needs the execute permission. */
const EXECUTE_TYPES: ReadonlySet<string> = new Set(['exec']);

export function mayChooseCheckType(roles: readonly string[], key: string): boolean {
  return !EXECUTE_TYPES.has(key) || can(roles, 'canaries', 'execute');
}

export interface CheckTypeOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/**
 * The Check Type choices for a user with these roles. A type they may not choose is left out (the server would refuse
 * it anyway), unless it is the type of the check being edited: that one stays, shown but not selectable.
 */
export function checkTypeOptionsFor(roles: readonly string[], current: string): CheckTypeOption[] {
  return CHECK_TYPE_CHOICES.flatMap((choice) => {
    if (mayChooseCheckType(roles, choice.key)) return [{ value: choice.key, label: choice.label }];
    return choice.key === current ? [{ value: choice.key, label: choice.label, disabled: true }] : [];
  });
}
