import { isConnectionType, type ConnectionType } from '@opsdeck/shared';
import { applyErrors } from './apply-errors';
import type { ApplyDocument } from './apply-documents';

/**
 * Mission Control's Connection (mission-control.flanksource.com/v1) as the fields of a stored connection (issue #32).
 * Each typed block Mission Control has (`spec.postgres`, `spec.slack`, …) maps onto one connection type here, field by
 * field; a block or field with no place here is refused by name, never stored and ignored. Values are given inline
 * (`value:` or a plain scalar): `valueFrom` reads a Kubernetes Secret or ConfigMap, which this server does not have.
 */

/** Where a Mission Control field goes in the stored connection. */
export type Target = 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls' | `properties.${string}`;

export interface BlockMapping {
  type: ConnectionType;
  fields: Readonly<Record<string, Target>>;
}

const SQL_FIELDS = { url: 'url', username: 'username', password: 'password' } as const;
const AWS_FIELDS = {
  url: 'url',
  region: 'properties.region',
  profile: 'properties.profile',
  accessKey: 'username',
  secretKey: 'password',
  insecureTLS: 'insecure_tls',
} as const;

export const CONNECTION_BLOCKS: Readonly<Record<string, BlockMapping>> = {
  postgres: { type: 'postgres', fields: SQL_FIELDS },
  mysql: { type: 'mysql', fields: SQL_FIELDS },
  mssql: { type: 'sql_server', fields: SQL_FIELDS },
  mongo: { type: 'mongo', fields: SQL_FIELDS },
  redis: { type: 'redis', fields: { url: 'url', username: 'username', password: 'password' } },
  elasticsearch: { type: 'elasticsearch', fields: { url: 'url', username: 'username', password: 'password', insecureTLS: 'insecure_tls' } },
  http: { type: 'http', fields: { url: 'url', username: 'username', password: 'password', insecureTLS: 'insecure_tls' } },
  prometheus: { type: 'prometheus', fields: { url: 'url', username: 'username', password: 'password' } },
  aws: { type: 'aws', fields: AWS_FIELDS },
  s3: { type: 's3', fields: { ...AWS_FIELDS, bucket: 'properties.bucket' } },
  azure: { type: 'azure', fields: { clientID: 'username', clientSecret: 'password', tenantID: 'properties.tenant' } },
  azureDevops: { type: 'azure_devops', fields: { organization: 'username', personalAccessToken: 'password' } },
  gcp: { type: 'google_cloud', fields: { certificate: 'certificate', endpoint: 'url' } },
  kubernetes: { type: 'kubernetes', fields: { certificate: 'certificate' } },
  github: { type: 'github', fields: { personalAccessToken: 'password' } },
  git: { type: 'git', fields: { url: 'url', ref: 'properties.ref', username: 'username', password: 'password', certificate: 'certificate' } },
  sftp: { type: 'sftp', fields: { host: 'url', port: 'properties.port', username: 'username', password: 'password' } },
  smb: { type: 'smb', fields: { server: 'url', port: 'properties.port', share: 'properties.sharename', username: 'username', password: 'password' } },
  folder: { type: 'folder', fields: { path: 'url' } },
  slack: { type: 'slack', fields: { token: 'password', channel: 'properties.channel', botName: 'properties.botName' } },
  telegram: { type: 'telegram', fields: { token: 'password', chats: 'properties.chats' } },
  ntfy: { type: 'ntfy', fields: { host: 'properties.host', topic: 'properties.topic', username: 'username', password: 'password' } },
  pushbullet: { type: 'pushbullet', fields: { token: 'password', targets: 'properties.targets' } },
  pushover: { type: 'pushover', fields: { token: 'password', user: 'username' } },
  smtp: {
    type: 'email',
    fields: {
      host: 'url',
      port: 'properties.port',
      username: 'username',
      password: 'password',
      insecureTLS: 'insecure_tls',
      encryption: 'properties.encryptionMethod',
      auth: 'properties.authMethod',
      fromAddress: 'properties.from',
      fromName: 'properties.fromName',
    },
  },
};

/** Mission Control's other connection kinds, each refused by name with what to do instead. */
export const CONNECTION_BLOCKS_NOT_RUN: Readonly<Record<string, string>> = {
  awskms: 'key management services are not run by this server (it seals secrets with its own key)',
  azureKeyVault: 'key management services are not run by this server (it seals secrets with its own key)',
  gcpkms: 'key management services are not run by this server (it seals secrets with its own key)',
  gcs: 'Google Cloud Storage is not read by this server',
  loki: 'Loki is reached through a log backend here (Settings → Logs), not a connection',
  opensearch: 'OpenSearch connections are not run by this server',
  gitlab: 'GitLab connections are not run by this server',
  discord: 'give spec.type: discord with the webhook URL in spec.url',
  facet: 'Facet connections are not run by this server',
  anthropic: 'AI connections are not run by this server',
  openai: 'AI connections are not run by this server',
  ollama: 'AI connections are not run by this server',
  gemini: 'AI connections are not run by this server',
};

/** The generic form (`spec.type` with url, username, password…), as Mission Control's own Connection also reads it. */
export const CONNECTION_GENERIC_FIELDS: Readonly<Record<string, Target>> = {
  url: 'url',
  username: 'username',
  password: 'password',
  certificate: 'certificate',
  insecure_tls: 'insecure_tls',
  port: 'properties.port',
};

/** The stored fields of a connection, as the connection store takes them. */
export interface ConnectionFields {
  type: ConnectionType;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Refusal = (field: string, problem: string) => Error;

/** An EnvVar as Mission Control writes one: a scalar, or `{value}`; `valueFrom` has nothing to read here. */
function valueOf(value: unknown, field: string, refuse: Refusal, notRun: Refusal): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isRecord(value)) {
    if (value.valueFrom !== undefined) {
      throw notRun(`${field}.valueFrom`, `${field}.valueFrom reads a Kubernetes Secret or ConfigMap, which this server does not have: give the value inline (it is sealed when stored) or create the connection in the console`);
    }
    const keys = Object.keys(value).filter((key) => key !== 'name');
    if (keys.length === 1 && keys[0] === 'value' && (typeof value.value === 'string' || typeof value.value === 'number')) return String(value.value);
  }
  throw refuse(field, `${field} must be a value (text, or {value: …})`);
}

function place(fields: ConnectionFields, target: Target, value: string, field: string, refuse: Refusal): void {
  if (target === 'insecure_tls') {
    if (value !== 'true' && value !== 'false') throw refuse(field, `${field} must be true or false`);
    fields.insecure_tls = value === 'true';
  } else if (target.startsWith('properties.')) {
    fields.properties[target.slice('properties.'.length)] = value;
  } else {
    fields[target as 'url' | 'username' | 'password' | 'certificate'] = value;
  }
}

function emptyFields(type: ConnectionType): ConnectionFields {
  return { type, url: null, username: null, password: null, certificate: null, insecure_tls: false, properties: {} };
}

/** The fields of a Connection document; throws a coded 400 naming the field for what is not run or not valid. */
export function connectionFields(document: ApplyDocument, location: (field: string) => string): ConnectionFields {
  const refuse: Refusal = (field, problem) => applyErrors.document(location(field), problem);
  const notRun: Refusal = (field, problem) => applyErrors.notRun(location(field), 'Connection', problem);
  const { spec } = document;
  const blocks = Object.keys(spec).filter((key) => key !== 'properties' && !(key in CONNECTION_GENERIC_FIELDS) && key !== 'type');
  let fields: ConnectionFields;
  if (blocks.length > 0) {
    if (blocks.length > 1) throw refuse('spec', `a Connection holds one kind of connection; this one holds ${blocks.join(' and ')}`);
    const [key] = blocks as [string];
    const mapping = CONNECTION_BLOCKS[key];
    const refusal = CONNECTION_BLOCKS_NOT_RUN[key];
    if (refusal !== undefined) throw notRun(`spec.${key}`, `spec.${key}: ${refusal}`);
    if (mapping === undefined) throw refuse(`spec.${key}`, `spec.${key} is not a field of a Connection`);
    const block = spec[key];
    if (!isRecord(block)) throw refuse(`spec.${key}`, `spec.${key} must be a map`);
    const stray = Object.keys(spec).find((other) => other !== key && other !== 'properties');
    if (stray !== undefined) throw refuse(`spec.${stray}`, `spec.${stray} cannot stand beside spec.${key}: give it inside spec.${key}`);
    fields = emptyFields(mapping.type);
    for (const [name, value] of Object.entries(block)) {
      const target = mapping.fields[name];
      if (target === undefined) throw notRun(`spec.${key}.${name}`, `spec.${key}.${name} is not run by this server for ${key} connections`);
      place(fields, target, valueOf(value, `spec.${key}.${name}`, refuse, notRun), `spec.${key}.${name}`, refuse);
    }
  } else {
    const type = typeof spec.type === 'string' ? spec.type : '';
    if (!isConnectionType(type)) throw notRun('spec.type', `spec.type ${JSON.stringify(spec.type ?? null)} is not a connection type of this server`);
    fields = emptyFields(type);
    for (const [name, target] of Object.entries(CONNECTION_GENERIC_FIELDS)) {
      if (spec[name] !== undefined) place(fields, target, valueOf(spec[name], `spec.${name}`, refuse, notRun), `spec.${name}`, refuse);
    }
  }
  if (spec.properties !== undefined) {
    if (!isRecord(spec.properties)) throw refuse('spec.properties', 'spec.properties must be a map of strings');
    for (const [name, value] of Object.entries(spec.properties)) {
      if (typeof value !== 'string') throw refuse(`spec.properties.${name}`, `spec.properties.${name} must be text`);
      fields.properties[name] = value;
    }
  }
  return fields;
}
