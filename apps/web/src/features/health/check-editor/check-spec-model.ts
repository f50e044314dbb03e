import { isSealedSecret, type SealedSecret } from '@opsdeck/shared';
import { checkTypeChoice, fieldName, type CheckFieldDefinition } from './health-check-types';

/**
 * A secret field holds the sealed secret the server stored (packages/shared check-specs.ts): the form shows only that
 * it is set, and sends it back untouched so the server keeps the secret.
 */
export type CheckFieldValue = string | number | number[] | SealedSecret | null;

export interface CheckFormValues {
  type: string;
  name: string;
  icon: string;
  schedule: string;
  description: string;
  fields: Record<string, CheckFieldValue>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readPath(entry: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = entry;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

function writePath(entry: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    entry[head] = value;
    return;
  }
  const child = isRecord(entry[head]) ? entry[head] : {};
  entry[head] = child;
  writePath(child, rest, value);
}

function holdsSecret(field: CheckFieldDefinition): boolean {
  return field.input === 'password' || field.sealed === true;
}

function formValue(field: CheckFieldDefinition, raw: unknown): CheckFieldValue {
  if (isSealedSecret(raw) && holdsSecret(field)) return { $encrypted: raw.$encrypted };
  switch (field.input) {
    case 'number':
      return typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : (field.defaultValue as number | undefined) ?? null;
    case 'codes':
      return Array.isArray(raw) ? raw.filter((code): code is number => typeof code === 'number') : [];
    case 'list':
      return Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string').join(', ') : '';
    case 'password':
      return typeof raw === 'string' ? raw : isRecord(raw) && typeof raw.value === 'string' ? raw.value : '';
    default:
      return typeof raw === 'string' ? raw : raw === undefined ? ((field.defaultValue as string | undefined) ?? '') : String(raw);
  }
}

export function emptyCheckForm(type: string): CheckFormValues {
  const fields: Record<string, CheckFieldValue> = {};
  for (const field of checkTypeChoice(type)?.fields ?? []) fields[fieldName(field)] = formValue(field, undefined);
  return { type, name: '', icon: '', schedule: '', description: '', fields };
}

const FORM_CANARY_KEYS = new Set(['schedule']);

/**
 * The form for a spec holding one check of a type that has a form, and nothing the form cannot show; null when the
 * spec needs the YAML editor.
 */
export function checkFormFromSpec(spec: Record<string, unknown>): CheckFormValues | null {
  const checkKeys = Object.keys(spec).filter((key) => !FORM_CANARY_KEYS.has(key));
  const [type] = checkKeys;
  if (checkKeys.length !== 1 || type === undefined) return null;
  const choice = checkTypeChoice(type);
  const list = spec[type];
  if (!choice?.fields || !Array.isArray(list) || list.length !== 1 || !isRecord(list[0])) return null;
  const entry = list[0];
  const known = new Set(['name', 'icon', 'description', ...choice.fields.map((field) => field.specPath[0])]);
  if (Object.keys(entry).some((key) => !known.has(key))) return null;
  const fields: Record<string, CheckFieldValue> = {};
  for (const field of choice.fields) {
    const raw = readPath(entry, field.specPath);
    // A value the form has no input for (a `valueFrom` reference, …) would be lost on save: the YAML editor keeps it.
    if (isRecord(raw) && !isSealedSecret(raw) && !(Object.keys(raw).length === 1 && typeof raw.value === 'string')) return null;
    fields[fieldName(field)] = formValue(field, raw);
  }
  return {
    type,
    name: typeof entry.name === 'string' ? entry.name : '',
    icon: typeof entry.icon === 'string' ? entry.icon : '',
    schedule: typeof spec.schedule === 'string' ? spec.schedule : '',
    description: typeof entry.description === 'string' ? entry.description : '',
    fields,
  };
}

function specValue(field: CheckFieldDefinition, value: CheckFieldValue | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  if (isSealedSecret(value)) return holdsSecret(field) ? { $encrypted: value.$encrypted } : undefined;
  switch (field.input) {
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'codes':
      return Array.isArray(value) && value.length > 0 ? [...value].sort((a, b) => a - b) : undefined;
    case 'list': {
      const items = String(value)
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      return items.length > 0 ? items : undefined;
    }
    default: {
      const text = String(value);
      return text.trim() === '' ? undefined : text;
    }
  }
}

export function isCheckFieldVisible(field: CheckFieldDefinition, fields: Record<string, CheckFieldValue>): boolean {
  if (!field.visibleWhen) return true;
  const current = fields[field.visibleWhen.field];
  return typeof current === 'string' && field.visibleWhen.oneOf.includes(current);
}

export function isCheckFieldRequired(field: CheckFieldDefinition, fields: Record<string, CheckFieldValue>): boolean {
  if (field.requiredUnless === undefined) return field.required === true;
  const other = fields[field.requiredUnless];
  return typeof other !== 'string' || other.trim() === '';
}

/** The canary spec a check form describes: `{schedule, <type>: [check]}`. Empty fields are left out. */
export function specFromCheckForm(values: CheckFormValues): Record<string, unknown> {
  const entry: Record<string, unknown> = { name: values.name.trim() };
  if (values.icon.trim() !== '') entry.icon = values.icon.trim();
  if (values.description.trim() !== '') entry.description = values.description.trim();
  for (const field of checkTypeChoice(values.type)?.fields ?? []) {
    if (!isCheckFieldVisible(field, values.fields)) continue;
    const value = specValue(field, values.fields[fieldName(field)]);
    if (value !== undefined) writePath(entry, field.specPath, value);
  }
  return { ...(values.schedule === '' ? {} : { schedule: values.schedule }), [values.type]: [entry] };
}

/**
 * Remote folders are folder checks with a connection (canary-checker has no sftp or s3 folder type of its own): those
 * choices start the YAML editor from a folder check that reads one, to fill in.
 */
const FOLDER_PRESETS: Readonly<Record<string, Record<string, unknown>>> = {
  sftp: { name: '', path: '/backups', sftpConnection: { connection: 'connection://default/sftp-server' }, minCount: 1, maxAge: '1d' },
  s3: { name: '', path: 's3://bucket/prefix/', awsConnection: { connection: 'connection://default/aws', region: 'us-east-1' }, minCount: 1, maxAge: '1d' },
};

/** A starting point for check types written in YAML. */
export function specTemplate(type: string, schedule: string): Record<string, unknown> {
  const preset = FOLDER_PRESETS[type];
  return { schedule: schedule === '' ? '@every 5m' : schedule, ...(preset === undefined ? { [type]: [{ name: '' }] } : { folder: [preset] }) };
}
