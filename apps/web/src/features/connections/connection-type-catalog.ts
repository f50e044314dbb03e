import {
  Bell,
  Cloud,
  Container,
  Database,
  FolderOpen,
  GitBranch,
  GitPullRequest,
  Globe,
  HardDrive,
  KeyRound,
  Mail,
  MessageSquare,
  Monitor,
  Search,
  Server,
  Send,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

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
  /** Numbers for number fields, booleans for switches, strings otherwise. */
  defaultValue?: string | number | boolean;
  options?: readonly string[];
  placeholder?: string;
  hint?: string;
  /** Shown only while another field holds this value (git's authentication choice). */
  visibleWhen?: { path: ConnectionFieldPath; equals: string };
}

export type ConnectionCategory = 'data' | 'notification';

export interface ConnectionTypeDefinition {
  type: string;
  label: string;
  icon: LucideIcon;
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
  placeholder,
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

/**
 * Every connection type of spec 002 §3, with its fields and defaults (§9). Types of both enumerations the spec
 * gives are listed, so every stored type can be edited.
 */
export const CONNECTION_TYPE_CATALOG: readonly ConnectionTypeDefinition[] = [
  { type: 'postgres', label: 'Postgres', icon: Database, category: 'data', fields: sqlFields('postgres://host:5432/database?sslmode=disable') },
  { type: 'mysql', label: 'MySQL', icon: Database, category: 'data', fields: sqlFields('mysql://host:3306/database') },
  { type: 'sql_server', label: 'SQL Server', icon: Database, category: 'data', fields: sqlFields('sqlserver://host:1433?database=master') },
  { type: 'http', label: 'HTTP', icon: Globe, category: 'data', fields: [url('URL', 'https://example.com'), username(), password(), insecureTls] },
  { type: 'prometheus', label: 'Prometheus', icon: Server, category: 'data', fields: [url('URL', 'http://prometheus:9090'), username(), password()] },
  {
    type: 'elasticsearch',
    label: 'Elasticsearch',
    icon: Search,
    category: 'data',
    fields: [url('URL', 'https://elasticsearch:9200'), username('Username', true), password('Password', true), insecureTls],
  },
  { type: 'mongo', label: 'Mongo', icon: Database, category: 'data', fields: sqlFields('mongodb://host:27017/database') },
  { type: 'ldap', label: 'LDAP', icon: KeyRound, category: 'data', fields: [url('URL', 'ldaps://ldap.example.com:636'), username('Bind DN', true), password('Password', true), insecureTls] },
  {
    type: 'redis',
    label: 'Redis',
    icon: Database,
    category: 'data',
    fields: [url('Address', 'redis:6379'), username(), password(), property('db', 'Database', { input: 'number', defaultValue: 0 })],
  },
  { type: 'windows', label: 'Windows', icon: Monitor, category: 'data', fields: [username('Username', true), password('Password', true), property('domain', 'Domain')] },
  {
    type: 'google_cloud',
    label: 'Google Cloud',
    icon: Cloud,
    category: 'data',
    fields: [{ path: 'certificate', label: 'Service Account Credentials (JSON)', input: 'multiline-secret', required: true }, url('Endpoint', undefined, false)],
  },
  { type: 'sftp', label: 'SFTP', icon: HardDrive, category: 'data', fields: [url('Host', 'sftp.example.com'), port(22), username('Username', true), password('Password', true)] },
  { type: 'aws', label: 'AWS', icon: Cloud, category: 'data', fields: awsFields },
  { type: 's3', label: 'S3', icon: Cloud, category: 'data', fields: [property('bucket', 'Bucket', { required: true }), ...awsFields] },
  {
    type: 'kubernetes',
    label: 'Kubernetes',
    icon: Container,
    category: 'data',
    fields: [{ path: 'certificate', label: 'Kubeconfig', input: 'multiline-secret', required: true }],
  },
  {
    type: 'azure_devops',
    label: 'Azure DevOps',
    icon: Cloud,
    category: 'data',
    fields: [username('Organization', true), password('Personal Access Token', true)],
  },
  {
    type: 'azure',
    label: 'Azure',
    icon: Cloud,
    category: 'data',
    fields: [username('Client ID', true), password('Client Secret', true), property('tenant', 'Tenant ID', { required: true })],
  },
  { type: 'github', label: 'GitHub', icon: GitPullRequest, category: 'data', fields: [password('Personal Access Token', true)] },
  {
    type: 'restic',
    label: 'Restic',
    icon: HardDrive,
    category: 'data',
    fields: [
      url('Repository URL', 's3:https://s3.amazonaws.com/bucket/restic'),
      password('Password', true),
      property('awsConnectionName', 'AWS Connection Name'),
      { path: 'secret_properties.accessKey', label: 'Access Key', input: 'secret' },
      { path: 'secret_properties.secretKey', label: 'Secret Key', input: 'secret' },
    ],
  },
  {
    type: 'smb',
    label: 'SMB',
    icon: HardDrive,
    category: 'data',
    fields: [
      url('Server', 'fileserver.example.com'),
      port(445),
      property('sharename', 'Share'),
      username(),
      password(),
      property('workstation', 'Workstation'),
      property('searchPath', 'Search Path'),
    ],
  },
  { type: 'jmeter', label: 'JMeter', icon: Server, category: 'data', hidden: true, fields: [url('URL', undefined, false), username(), password()] },
  {
    type: 'dynatrace',
    label: 'Dynatrace',
    icon: Server,
    category: 'data',
    fields: [url('Host', 'abc12345.live.dynatrace.com'), password('API Key', true), property('scheme', 'Scheme', { input: 'select', options: ['https', 'http'], defaultValue: 'https' })],
  },
  { type: 'folder', label: 'Folder', icon: FolderOpen, category: 'data', fields: [url('Path', '/var/data')] },
  {
    type: 'git',
    label: 'Git',
    icon: GitBranch,
    category: 'data',
    fields: [
      url('URL', 'https://github.com/org/repo.git'),
      { path: 'ui.authentication', label: 'Authentication', input: 'select', options: ['basic', 'ssh'], defaultValue: 'basic' },
      { ...username(), visibleWhen: { path: 'ui.authentication', equals: 'basic' } },
      { ...password(), visibleWhen: { path: 'ui.authentication', equals: 'basic' } },
      { path: 'certificate', label: 'SSH Private Key', input: 'multiline-secret', visibleWhen: { path: 'ui.authentication', equals: 'ssh' } },
      property('ref', 'Ref', { defaultValue: 'main' }),
    ],
  },
  { type: 'discord', label: 'Discord', icon: MessageSquare, category: 'notification', fields: [url('Webhook URL', 'https://discord.com/api/webhooks/…')] },
  {
    type: 'email',
    label: 'Email',
    icon: Mail,
    category: 'notification',
    fields: [
      url('Host', 'smtp.example.com'),
      port(587),
      property('from', 'From', { required: true }),
      property('fromName', 'From Name'),
      username(),
      password(),
      property('encryptionMethod', 'Encryption Method', { input: 'select', options: ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'], defaultValue: 'Auto' }),
      property('authMethod', 'Auth Method', { input: 'select', options: ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'], defaultValue: 'Unknown' }),
      insecureTls,
    ],
  },
  { type: 'google_chat', label: 'Google Chat', icon: MessageSquare, category: 'notification', fields: [url('Webhook URL', 'https://chat.googleapis.com/v1/spaces/…')] },
  { type: 'ifttt', label: 'IFTTT', icon: Bell, category: 'notification', fields: [password('Webhook Key', true), property('events', 'Events', { required: true })] },
  { type: 'mattermost', label: 'Mattermost', icon: MessageSquare, category: 'notification', fields: [url('Webhook URL'), username(), property('channel', 'Channel')] },
  {
    type: 'matrix',
    label: 'Matrix',
    icon: MessageSquare,
    category: 'notification',
    fields: [property('host', 'Host', { required: true }), username('Username', true), password('Password', true), property('rooms', 'Rooms')],
  },
  {
    type: 'ntfy',
    label: 'Ntfy',
    icon: Bell,
    category: 'notification',
    fields: [property('host', 'Host', { defaultValue: 'ntfy.sh' }), property('topic', 'Topic', { required: true }), username(), password()],
  },
  {
    type: 'opsgenie',
    label: 'OpsGenie',
    icon: Bell,
    category: 'notification',
    fields: [property('host', 'Host', { defaultValue: 'api.opsgenie.com' }), port(443), password('API Key', true)],
  },
  { type: 'pushbullet', label: 'Pushbullet', icon: Bell, category: 'notification', fields: [password('Access Token', true), property('targets', 'Targets', { required: true })] },
  { type: 'pushover', label: 'Pushover', icon: Bell, category: 'notification', fields: [password('Token', true), username('User Key', true)] },
  { type: 'rocketchat', label: 'Rocket.Chat', icon: MessageSquare, category: 'notification', fields: [url('Webhook URL'), username(), property('channel', 'Channel')] },
  {
    type: 'slack',
    label: 'Slack',
    icon: MessageSquare,
    category: 'notification',
    fields: [property('channel', 'Channel', { required: true }), password('Bot Token', true), property('botName', 'Bot Name')],
  },
  { type: 'slackwebhook', label: 'Slack Webhook', icon: MessageSquare, category: 'notification', fields: [url('Webhook URL', 'https://hooks.slack.com/services/…')] },
  {
    type: 'teams',
    label: 'Teams',
    icon: MessageSquare,
    category: 'notification',
    fields: [
      property('group', 'Group', { required: true }),
      property('tenant', 'Tenant', { required: true }),
      property('altID', 'Alt ID', { required: true }),
      property('groupOwner', 'Group Owner', { required: true }),
      property('host', 'Host', { defaultValue: 'outlook.office.com' }),
    ],
  },
  { type: 'telegram', label: 'Telegram', icon: Send, category: 'notification', fields: [password('Bot Token', true), property('chats', 'Chats', { required: true })] },
  {
    type: 'zulip_chat',
    label: 'Zulip Chat',
    icon: MessageSquare,
    category: 'notification',
    fields: [url('Host', 'https://zulip.example.com'), username('Bot Mail', true), password('Bot Key', true), property('stream', 'Stream'), property('topic', 'Topic')],
  },
  {
    type: 'generic_webhook',
    label: 'Generic Webhook',
    icon: Webhook,
    category: 'notification',
    fields: [
      url('URL', 'https://example.com/hook'),
      property('contentType', 'Content Type', { defaultValue: 'application/json' }),
      property('requestMethod', 'Request Method', { input: 'select', options: ['POST', 'GET'], defaultValue: 'POST' }),
      property('messageKey', 'Message Key', { defaultValue: 'message' }),
      property('titleKey', 'Title Key', { defaultValue: 'title' }),
      username(),
      password(),
    ],
  },
  { type: 'webhook', label: 'Webhook', icon: Webhook, category: 'notification', fields: [url('URL', 'https://example.com/hook'), username(), password()] },
];

const BY_TYPE = new Map(CONNECTION_TYPE_CATALOG.map((definition) => [definition.type, definition]));

/** The types offered in the grid, in catalog order. */
export const SELECTABLE_CONNECTION_TYPES = CONNECTION_TYPE_CATALOG.filter((definition) => !definition.hidden);

/** The definition of a stored type; an unknown type (from another system) gets a plain URL and credentials form. */
export function connectionTypeDefinition(type: string): ConnectionTypeDefinition {
  return BY_TYPE.get(type) ?? { type, label: type, icon: Server, category: 'data', fields: [url('URL', undefined, false), username(), password()] };
}
