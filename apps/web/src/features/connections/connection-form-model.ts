import type { Connection, ConnectionInput } from './api/types';
import type { ConnectionFieldDefinition, ConnectionFieldPath, ConnectionTypeDefinition } from './connection-type-catalog';

export const DEFAULT_NAMESPACE = 'default';

export interface ConnectionFormValues {
  name: string;
  namespace: string;
  url: string;
  username: string;
  password: string;
  certificate: string;
  insecure_tls: boolean;
  properties: Record<string, string | number | null>;
  secret_properties: Record<string, string>;
  ui: Record<string, string>;
}

type FieldValue = string | number | boolean | null | undefined;

function splitPath(path: ConnectionFieldPath): { group: 'properties' | 'secret_properties' | 'ui'; key: string } | null {
  const dot = path.indexOf('.');
  if (dot < 0) return null;
  return { group: path.slice(0, dot) as 'properties' | 'secret_properties' | 'ui', key: path.slice(dot + 1) };
}

export function readField(values: ConnectionFormValues, path: ConnectionFieldPath): FieldValue {
  const nested = splitPath(path);
  if (nested === null) return values[path as 'url' | 'username' | 'password' | 'certificate' | 'insecure_tls'];
  return values[nested.group][nested.key];
}

export function isFieldVisible(field: ConnectionFieldDefinition, values: ConnectionFormValues): boolean {
  if (!field.visibleWhen) return true;
  return readField(values, field.visibleWhen.path) === field.visibleWhen.equals;
}

export function isSecretField(field: ConnectionFieldDefinition): boolean {
  return field.input === 'secret' || field.input === 'multiline-secret';
}

/** Whether the server holds a value for this secret field; the value itself never reaches the browser. */
export function isSecretSet(field: ConnectionFieldDefinition, connection: Connection | undefined): boolean {
  if (!connection) return false;
  if (field.path === 'password') return connection.password_set;
  if (field.path === 'certificate') return connection.certificate_set;
  const nested = splitPath(field.path);
  return nested?.group === 'secret_properties' && connection.secret_properties_set.includes(nested.key);
}

function storedValue(field: ConnectionFieldDefinition, connection: Connection | undefined): FieldValue {
  if (!connection) return undefined;
  if (field.path === 'url') return connection.url ?? undefined;
  if (field.path === 'username') return connection.username ?? undefined;
  if (field.path === 'insecure_tls') return connection.insecure_tls;
  const nested = splitPath(field.path);
  if (nested?.group !== 'properties') return undefined;
  const stored = connection.properties[nested.key];
  if (stored === undefined) return undefined;
  return field.input === 'number' && stored.trim() !== '' && Number.isFinite(Number(stored)) ? Number(stored) : stored;
}

/** The form's starting values: the stored connection's, else each field's default (spec 002 §9). Secrets start empty. */
export function initialFormValues(definition: ConnectionTypeDefinition, connection?: Connection): ConnectionFormValues {
  const values: ConnectionFormValues = {
    name: connection?.name ?? '',
    namespace: connection?.namespace ?? DEFAULT_NAMESPACE,
    url: '',
    username: '',
    password: '',
    certificate: '',
    insecure_tls: false,
    properties: {},
    secret_properties: {},
    ui: {},
  };
  for (const field of definition.fields) {
    const value = storedValue(field, connection) ?? field.defaultValue;
    const nested = splitPath(field.path);
    if (field.path === 'insecure_tls') values.insecure_tls = value === true;
    else if (field.path === 'url' || field.path === 'username') values[field.path] = typeof value === 'string' ? value : '';
    else if (nested?.group === 'properties') values.properties[nested.key] = typeof value === 'number' || typeof value === 'string' ? value : field.input === 'number' ? null : '';
    else if (nested?.group === 'secret_properties') values.secret_properties[nested.key] = '';
    else if (nested?.group === 'ui') values.ui[nested.key] = typeof value === 'string' ? value : '';
  }
  // A choice such as git's authentication is not stored: pick the option that shows what the connection has set.
  for (const field of definition.fields) {
    if (field.visibleWhen && isSecretField(field) && isSecretSet(field, connection)) {
      const switchPath = splitPath(field.visibleWhen.path);
      if (switchPath?.group === 'ui') values.ui[switchPath.key] = field.visibleWhen.equals;
    }
  }
  return values;
}

function textOrNull(value: FieldValue): string | null {
  if (value === null || value === undefined || value === false) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/**
 * What Save, Update and Test Connection send. Empty secrets are left out so the stored ones are kept; properties
 * the form does not know (set by seeding or another client) are kept as they are.
 */
export function toConnectionInput(definition: ConnectionTypeDefinition, values: ConnectionFormValues, existing?: Connection): ConnectionInput {
  const formKeys = new Set(definition.fields.map((field) => splitPath(field.path)).filter((nested) => nested?.group === 'properties').map((nested) => nested?.key));
  const properties: Record<string, string> = Object.fromEntries(Object.entries(existing?.properties ?? {}).filter(([key]) => !formKeys.has(key)));
  const input: ConnectionInput = {
    name: values.name.trim(),
    namespace: values.namespace.trim(),
    type: definition.type,
    url: null,
    username: null,
    insecure_tls: false,
    properties,
  };
  const secretProperties: Record<string, string> = {};
  for (const field of definition.fields) {
    if (!isFieldVisible(field, values)) continue;
    const value = readField(values, field.path);
    // Secrets are sent as typed: leading or trailing spaces may be part of a password.
    const text = isSecretField(field) ? (typeof value === 'string' && value !== '' ? value : null) : textOrNull(value);
    const nested = splitPath(field.path);
    if (field.path === 'url') input.url = text;
    else if (field.path === 'username') input.username = text;
    else if (field.path === 'insecure_tls') input.insecure_tls = value === true;
    else if (field.path === 'password' && text !== null) input.password = text;
    else if (field.path === 'certificate' && text !== null) input.certificate = text;
    else if (nested?.group === 'properties' && text !== null) properties[nested.key] = text;
    else if (nested?.group === 'secret_properties' && text !== null) secretProperties[nested.key] = text;
  }
  if (Object.keys(secretProperties).length > 0) input.secret_properties = secretProperties;
  return input;
}
