import { z } from 'zod';

/**
 * A connection as the API returns it (spec 002 §3); the server builds it, the web reads it. Secrets are never sent
 * back: only whether each one is set.
 */
export const publicConnectionSchema = z.object({
  id: z.guid(),
  name: z.string(),
  namespace: z.string(),
  type: z.string(),
  url: z.string().nullable(),
  username: z.string().nullable(),
  insecure_tls: z.boolean(),
  properties: z.record(z.string(), z.string()),
  password_set: z.boolean(),
  certificate_set: z.boolean(),
  secret_properties_set: z.array(z.string()),
  source: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PublicConnection = z.infer<typeof publicConnectionSchema>;

/** GET /api/canary/connections. */
export const connectionPageSchema = z.object({ data: z.array(publicConnectionSchema), total: z.number().int() });
export type ConnectionPage = z.infer<typeof connectionPageSchema>;

/** What Test Connection answers when the target was reached. */
export const connectionTestResultSchema = z.object({ message: z.literal('ok'), details: z.record(z.string(), z.unknown()) });

/** Connection types of spec 002 §3 (both enumerations it gives), in the order the type grid shows them. */
export const CONNECTION_TYPES = [
  'postgres',
  'mysql',
  'sql_server',
  'http',
  'prometheus',
  'elasticsearch',
  'mongo',
  'ldap',
  'redis',
  'windows',
  'google_cloud',
  'sftp',
  'aws',
  's3',
  'kubernetes',
  'azure_devops',
  'azure',
  'github',
  'restic',
  'smb',
  'jmeter',
  'dynatrace',
  'folder',
  'git',
  'discord',
  'email',
  'google_chat',
  'ifttt',
  'mattermost',
  'matrix',
  'ntfy',
  'opsgenie',
  'pushbullet',
  'pushover',
  'rocketchat',
  'slack',
  'slackwebhook',
  'teams',
  'telegram',
  'zulip_chat',
  'generic_webhook',
  'webhook',
] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export function isConnectionType(value: string): value is ConnectionType {
  return (CONNECTION_TYPES as readonly string[]).includes(value);
}

export const EMAIL_ENCRYPTION_METHODS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;
export const EMAIL_AUTH_METHODS = ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'] as const;

/** Where a field's value goes in the stored connection; `ui.*` fields only steer the form. */
export type ConnectionFieldPath =
  | 'url'
  | 'username'
  | 'password'
  | 'certificate'
  | 'insecure_tls'
  | `properties.${string}`
  | `secret_properties.${string}`
  | `ui.${string}`;

export type ConnectionFieldInput = 'text' | 'secret' | 'multiline-secret' | 'number' | 'select' | 'switch';

export interface ConnectionFieldDefinition {
  path: ConnectionFieldPath;
  label: string;
  input: ConnectionFieldInput;
  required?: boolean;
  /** Numbers for number fields, booleans for switches, strings otherwise; property defaults are stored as text. */
  defaultValue?: string | number | boolean;
  options?: readonly string[];
  placeholder?: string;
  hint?: string;
  /** Shown only while another field holds this value (git's authentication choice). */
  visibleWhen?: { path: ConnectionFieldPath; equals: string };
}

export type ConnectionCategory = 'data' | 'notification';

export interface ConnectionTypeSpec {
  label: string;
  category: ConnectionCategory;
  fields: readonly ConnectionFieldDefinition[];
  /** Storable but not offered in the type grid (spec 002 §3: jmeter is hidden). */
  hidden?: boolean;
}

const url = (label = 'URL', placeholder?: string, required = true): ConnectionFieldDefinition => ({
  path: 'url',
  label,
  input: 'text',
  required,
  ...(placeholder === undefined ? {} : { placeholder }),
});
const username = (label = 'Username', required = false): ConnectionFieldDefinition => ({ path: 'username', label, input: 'text', required });
const password = (label = 'Password', required = false): ConnectionFieldDefinition => ({ path: 'password', label, input: 'secret', required });
const insecureTls: ConnectionFieldDefinition = { path: 'insecure_tls', label: 'Insecure TLS', input: 'switch', defaultValue: false };
const property = (key: string, label: string, extra: Partial<ConnectionFieldDefinition> = {}): ConnectionFieldDefinition => ({
  path: `properties.${key}`,
  label,
  input: 'text',
  ...extra,
});
const port = (defaultValue: number): ConnectionFieldDefinition => property('port', 'Port', { input: 'number', defaultValue });

/** Credentials are required except where spec 002 §5 makes them optional (prometheus, redis, aws, s3, smb). */
const sqlFields = (placeholder: string): ConnectionFieldDefinition[] => [url('URL', placeholder), username('Username', true), password('Password', true)];

const awsFields: ConnectionFieldDefinition[] = [
  property('region', 'Region', { placeholder: 'us-east-1' }),
  property('profile', 'Profile'),
  username('Access Key'),
  password('Secret Key'),
  url('Endpoint', 'https://s3.example.com', false),
  insecureTls,
];

const data = (label: string, fields: readonly ConnectionFieldDefinition[]): ConnectionTypeSpec => ({ label, category: 'data', fields });
const notification = (label: string, fields: readonly ConnectionFieldDefinition[]): ConnectionTypeSpec => ({ label, category: 'notification', fields });

/**
 * Every connection type of spec 002 §3 with its fields, which of them are required and their defaults (§9): the form
 * is built from it and the server applies its URL rule and defaults from it.
 */
export const CONNECTION_TYPE_SPECS: Readonly<Record<ConnectionType, ConnectionTypeSpec>> = {
  postgres: data('Postgres', sqlFields('postgres://host:5432/database?sslmode=disable')),
  mysql: data('MySQL', sqlFields('mysql://host:3306/database')),
  sql_server: data('SQL Server', sqlFields('sqlserver://host:1433?database=master')),
  http: data('HTTP', [url('URL', 'https://example.com'), username(), password(), insecureTls]),
  prometheus: data('Prometheus', [url('URL', 'http://prometheus:9090'), username(), password()]),
  elasticsearch: data('Elasticsearch', [url('URL', 'https://elasticsearch:9200'), username('Username', true), password('Password', true), insecureTls]),
  mongo: data('Mongo', sqlFields('mongodb://host:27017/database')),
  ldap: data('LDAP', [url('URL', 'ldaps://ldap.example.com:636'), username('Bind DN', true), password('Password', true), insecureTls]),
  redis: data('Redis', [url('Address', 'redis:6379'), username(), password(), property('db', 'Database', { input: 'number', defaultValue: 0 })]),
  windows: data('Windows', [username('Username', true), password('Password', true), property('domain', 'Domain')]),
  google_cloud: data('Google Cloud', [
    { path: 'certificate', label: 'Service Account Credentials (JSON)', input: 'multiline-secret', required: true },
    url('Endpoint', undefined, false),
  ]),
  sftp: data('SFTP', [url('Host', 'sftp.example.com'), port(22), username('Username', true), password('Password', true)]),
  aws: data('AWS', awsFields),
  s3: data('S3', [property('bucket', 'Bucket', { required: true }), ...awsFields]),
  kubernetes: data('Kubernetes', [{ path: 'certificate', label: 'Kubeconfig', input: 'multiline-secret', required: true }]),
  azure_devops: data('Azure DevOps', [username('Organization', true), password('Personal Access Token', true)]),
  azure: data('Azure', [username('Client ID', true), password('Client Secret', true), property('tenant', 'Tenant ID', { required: true })]),
  github: data('GitHub', [password('Personal Access Token', true)]),
  restic: data('Restic', [
    url('Repository URL', 's3:https://s3.amazonaws.com/bucket/restic'),
    password('Password', true),
    property('awsConnectionName', 'AWS Connection Name'),
    { path: 'secret_properties.accessKey', label: 'Access Key', input: 'secret' },
    { path: 'secret_properties.secretKey', label: 'Secret Key', input: 'secret' },
  ]),
  smb: data('SMB', [
    url('Server', 'fileserver.example.com'),
    port(445),
    property('sharename', 'Share'),
    username(),
    password(),
    property('workstation', 'Workstation'),
    property('searchPath', 'Search Path'),
  ]),
  jmeter: { ...data('JMeter', [url('URL', undefined, false), username(), password()]), hidden: true },
  dynatrace: data('Dynatrace', [
    url('Host', 'abc12345.live.dynatrace.com'),
    password('API Key', true),
    property('scheme', 'Scheme', { input: 'select', options: ['https', 'http'], defaultValue: 'https' }),
  ]),
  folder: data('Folder', [url('Path', '/var/data')]),
  git: data('Git', [
    url('URL', 'https://github.com/org/repo.git'),
    { path: 'ui.authentication', label: 'Authentication', input: 'select', options: ['basic', 'ssh'], defaultValue: 'basic' },
    { ...username(), visibleWhen: { path: 'ui.authentication', equals: 'basic' } },
    { ...password(), visibleWhen: { path: 'ui.authentication', equals: 'basic' } },
    { path: 'certificate', label: 'SSH Private Key', input: 'multiline-secret', visibleWhen: { path: 'ui.authentication', equals: 'ssh' } },
    property('ref', 'Ref', { defaultValue: 'main' }),
  ]),
  discord: notification('Discord', [url('Webhook URL', 'https://discord.com/api/webhooks/…')]),
  email: notification('Email', [
    url('Host', 'smtp.example.com'),
    port(587),
    property('from', 'From', { required: true }),
    property('fromName', 'From Name'),
    username(),
    password(),
    property('encryptionMethod', 'Encryption Method', { input: 'select', options: EMAIL_ENCRYPTION_METHODS, defaultValue: 'Auto' }),
    property('authMethod', 'Auth Method', { input: 'select', options: EMAIL_AUTH_METHODS, defaultValue: 'Unknown' }),
    insecureTls,
  ]),
  google_chat: notification('Google Chat', [url('Webhook URL', 'https://chat.googleapis.com/v1/spaces/…')]),
  ifttt: notification('IFTTT', [password('Webhook Key', true), property('events', 'Events', { required: true })]),
  mattermost: notification('Mattermost', [url('Webhook URL'), username(), property('channel', 'Channel')]),
  matrix: notification('Matrix', [property('host', 'Host', { required: true }), username('Username', true), password('Password', true), property('rooms', 'Rooms')]),
  ntfy: notification('Ntfy', [property('host', 'Host', { defaultValue: 'ntfy.sh' }), property('topic', 'Topic', { required: true }), username(), password()]),
  opsgenie: notification('OpsGenie', [property('host', 'Host', { defaultValue: 'api.opsgenie.com' }), port(443), password('API Key', true)]),
  pushbullet: notification('Pushbullet', [password('Access Token', true), property('targets', 'Targets', { required: true })]),
  pushover: notification('Pushover', [password('Token', true), username('User Key', true)]),
  rocketchat: notification('Rocket.Chat', [url('Webhook URL'), username(), property('channel', 'Channel')]),
  slack: notification('Slack', [property('channel', 'Channel', { required: true }), password('Bot Token', true), property('botName', 'Bot Name')]),
  slackwebhook: notification('Slack Webhook', [url('Webhook URL', 'https://hooks.slack.com/services/…')]),
  teams: notification('Teams', [
    property('group', 'Group', { required: true }),
    property('tenant', 'Tenant', { required: true }),
    property('altID', 'Alt ID', { required: true }),
    property('groupOwner', 'Group Owner', { required: true }),
    property('host', 'Host', { defaultValue: 'outlook.office.com' }),
  ]),
  telegram: notification('Telegram', [password('Bot Token', true), property('chats', 'Chats', { required: true })]),
  zulip_chat: notification('Zulip Chat', [
    url('Host', 'https://zulip.example.com'),
    username('Bot Mail', true),
    password('Bot Key', true),
    property('stream', 'Stream'),
    property('topic', 'Topic'),
  ]),
  generic_webhook: notification('Generic Webhook', [
    url('URL', 'https://example.com/hook'),
    property('contentType', 'Content Type', { defaultValue: 'application/json' }),
    property('requestMethod', 'Request Method', { input: 'select', options: ['POST', 'GET'], defaultValue: 'POST' }),
    property('messageKey', 'Message Key', { defaultValue: 'message' }),
    property('titleKey', 'Title Key', { defaultValue: 'title' }),
    username(),
    password(),
  ]),
  webhook: notification('Webhook', [url('URL', 'https://example.com/hook'), username(), password()]),
};

/** The fields of a type the catalog does not know (stored by another system): a plain URL and credentials. */
export const FALLBACK_CONNECTION_FIELDS: readonly ConnectionFieldDefinition[] = [url('URL', undefined, false), username(), password()];

export const NOTIFICATION_CONNECTION_TYPES: ReadonlySet<ConnectionType> = new Set(
  CONNECTION_TYPES.filter((type) => CONNECTION_TYPE_SPECS[type].category === 'notification'),
);

/** Whether a connection of this type cannot reach its target without a `url`. */
export function connectionUrlRequired(type: ConnectionType): boolean {
  return CONNECTION_TYPE_SPECS[type].fields.some((field) => field.path === 'url' && field.required === true);
}

const PROPERTY_PREFIX = 'properties.';

/** The non-secret properties a type defaults (spec 002 §3, §9), as the text they are stored as. */
export function connectionPropertyDefaults(type: ConnectionType): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const field of CONNECTION_TYPE_SPECS[type].fields) {
    if (field.path.startsWith(PROPERTY_PREFIX) && field.defaultValue !== undefined) defaults[field.path.slice(PROPERTY_PREFIX.length)] = String(field.defaultValue);
  }
  return defaults;
}
