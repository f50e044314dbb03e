/** The webhook-style notification types (spec 002 §3). */
const NOTIFICATION_TYPES = [
  'discord',
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

/** Connection types of spec 002 §3 (both enumerations it gives). */
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
  'email',
  ...NOTIFICATION_TYPES,
] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const NOTIFICATION_CONNECTION_TYPES: ReadonlySet<ConnectionType> = new Set<ConnectionType>(NOTIFICATION_TYPES);

/** Non-secret per-type properties the forms default (spec 002 §3, §9). Stored values are always strings. */
export const PROPERTY_DEFAULTS: Partial<Record<ConnectionType, Record<string, string>>> = {
  redis: { db: '0' },
  sftp: { port: '22' },
  smb: { port: '445' },
  email: { port: '587', encryptionMethod: 'Auto', authMethod: 'Unknown' },
  opsgenie: { port: '443' },
  ntfy: { host: 'ntfy.sh' },
  generic_webhook: { contentType: 'application/json', requestMethod: 'POST', messageKey: 'message', titleKey: 'title' },
  git: { ref: 'main' },
};

/** Types whose `url` field must be filled: the target cannot be reached without it. */
export const URL_REQUIRED: ReadonlySet<ConnectionType> = new Set<ConnectionType>([
  'postgres',
  'mysql',
  'sql_server',
  'http',
  'prometheus',
  'elasticsearch',
  'mongo',
  'ldap',
  'redis',
  'sftp',
  'email',
  'git',
  'folder',
  'dynatrace',
  'generic_webhook',
  'webhook',
  'discord',
  'mattermost',
  'rocketchat',
  'slackwebhook',
  'google_chat',
  'zulip_chat',
]);

export const EMAIL_ENCRYPTION_METHODS = ['None', 'ExplicitTLS', 'ImplicitTLS', 'Auto'] as const;
export const EMAIL_AUTH_METHODS = ['None', 'Plain', 'CRAMMD5', 'Unknown', 'OAuth2'] as const;

export function isConnectionType(value: string): value is ConnectionType {
  return (CONNECTION_TYPES as readonly string[]).includes(value);
}
