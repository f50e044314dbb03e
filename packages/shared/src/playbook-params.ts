import { parse as parseYaml } from 'yaml';
import { formatDuration, parseDurationMs } from './durations';
import type { PlaybookParameter, PlaybookParameterProperties, PlaybookParameterType } from './playbooks';

/**
 * Playbook parameter rules (spec 001 §5), one implementation for the run form in the browser and the run request on
 * the server, so the form never accepts what the server refuses. Values are strings, as the run request carries them.
 */

export const PARAMETER_REQUIRED_MESSAGE = 'This field is required';
export const PARAMETER_NUMBER_MESSAGE = 'This field must be a number';
export const PARAMETER_UNKNOWN_MESSAGE = 'Unknown parameter';
export const PARAMETER_DNS1123_MESSAGE = "Must be lowercase letters, digits, '-' and '.'";
export const PARAMETER_BYTES_MESSAGE = 'Must be a size in bytes, such as 512Mi or 1Gi';
export const PARAMETER_MILLICORES_MESSAGE = 'Must be CPU millicores, such as 500m or 2';
export const PARAMETER_LIST_MESSAGE = 'Choose one of the options';
export const PARAMETER_CHECKBOX_MESSAGE = 'Must be true or false';
export const PARAMETER_DURATION_MESSAGE = 'Must be a duration, such as 30s, 5m or 1h';

/** A DNS-1123 subdomain, as Kubernetes names most objects. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_MAX_LENGTH = 253;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Kubernetes quantity suffixes that make sense for a size: binary (Ki…Ei) and decimal (k…E); K is forgiven. */
const BYTE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const QUANTITY = /^(\d+(?:\.\d+)?|\.\d+)([a-zA-Z]*)$/;

const RESOURCE_MESSAGES: Readonly<Record<'team' | 'people' | 'component' | 'config' | 'check', string>> = {
  team: 'Choose a team',
  people: 'Choose a person',
  component: 'Choose a component',
  config: 'Choose a catalog item',
  check: 'Choose a check',
};

function isResourceType(type: PlaybookParameterType): type is keyof typeof RESOURCE_MESSAGES {
  return Object.hasOwn(RESOURCE_MESSAGES, type);
}

/** A size as Kubernetes writes it ('512Mi', '1Gi', '100M', '1024') in bytes; null for anything else. */
export function parseBytes(text: string): number | null {
  const match = QUANTITY.exec(text.trim());
  if (match === null) return null;
  const suffix = match[2] ?? '';
  const unit = Object.hasOwn(BYTE_UNITS, suffix) ? BYTE_UNITS[suffix] : undefined;
  return unit === undefined ? null : Number(match[1]) * unit;
}

/** CPU as Kubernetes writes it ('500m', '2', '0.5') in millicores; null for anything else. */
export function parseMillicores(text: string): number | null {
  const match = QUANTITY.exec(text.trim());
  if (match === null) return null;
  const suffix = match[2] ?? '';
  if (suffix === 'm') return Number(match[1]);
  return suffix === '' ? Number(match[1]) * 1000 : null;
}

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

interface NumericFormat {
  parse: (text: string) => number | null;
  message: string;
  /** A bound written back the way a user types a value of this format. */
  show: (bound: number) => string;
}

const NUMERIC_FORMATS: Readonly<Record<'number' | 'bytes' | 'millicores' | 'duration', NumericFormat>> = {
  number: { parse: parseNumber, message: PARAMETER_NUMBER_MESSAGE, show: String },
  bytes: { parse: parseBytes, message: PARAMETER_BYTES_MESSAGE, show: String },
  millicores: { parse: parseMillicores, message: PARAMETER_MILLICORES_MESSAGE, show: (bound) => `${bound}m` },
  /** Mission Control's duration parameter; bounds are kept in milliseconds. */
  duration: { parse: parseDurationMs, message: PARAMETER_DURATION_MESSAGE, show: formatDuration },
};

function numericFormat(format: string | undefined): NumericFormat | undefined {
  return format !== undefined && Object.hasOwn(NUMERIC_FORMATS, format) ? NUMERIC_FORMATS[format as keyof typeof NUMERIC_FORMATS] : undefined;
}

function lengthMessage(definition: PlaybookParameter, value: string): string | null {
  const { minLength, maxLength } = definition.properties ?? {};
  if (minLength !== undefined && value.length < minLength) return `Must be at least ${minLength} characters`;
  if (maxLength !== undefined && value.length > maxLength) return `Must be at most ${maxLength} characters`;
  return null;
}

/** The pattern is searched for, not anchored, as Mission Control's form does: write ^…$ to match the whole value. */
function patternMessage(regex: string | undefined, value: string): string | null {
  if (regex === undefined || regex === '') return null;
  let pattern: RegExp;
  try {
    pattern = new RegExp(regex);
  } catch {
    // The spec check refuses a bad pattern on save; a value cannot be blamed for it.
    return null;
  }
  return pattern.test(value) ? null : `Must match the pattern ${regex}`;
}

function textMessage(definition: PlaybookParameter, value: string): string | null {
  const properties = definition.properties ?? {};
  const length = lengthMessage(definition, value);
  if (length !== null) return length;
  const pattern = patternMessage(properties.regex, value);
  if (pattern !== null) return pattern;
  if (properties.format === 'dns1123') {
    return value.length <= DNS1123_MAX_LENGTH && DNS1123_SUBDOMAIN.test(value) ? null : PARAMETER_DNS1123_MESSAGE;
  }
  const numeric = numericFormat(properties.format);
  return numeric === undefined ? null : amountMessage(numeric, properties, value);
}

function amountMessage(numeric: NumericFormat, properties: PlaybookParameterProperties, value: string): string | null {
  const amount = numeric.parse(value);
  if (amount === null) return numeric.message;
  if (properties.min !== undefined && amount < properties.min) return `Must be at least ${numeric.show(properties.min)}`;
  if (properties.max !== undefined && amount > properties.max) return `Must be at most ${numeric.show(properties.max)}`;
  return null;
}

function optionMessage(definition: PlaybookParameter, value: string): string | null {
  const options = definition.properties?.options ?? [];
  return options.length === 0 || options.some((option) => option.value === value) ? null : PARAMETER_LIST_MESSAGE;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function codeMessage(definition: PlaybookParameter, value: string): string | null {
  const length = lengthMessage(definition, value);
  if (length !== null) return length;
  try {
    if (definition.properties?.language === 'json') JSON.parse(value);
    if (definition.properties?.language === 'yaml') parseYaml(value);
  } catch (error) {
    return `Not valid ${definition.properties?.language === 'json' ? 'JSON' : 'YAML'}: ${firstLine(error)}`;
  }
  return null;
}

/** The message for one value, or null when it is valid. An empty value is valid unless the parameter is required. */
export function parameterMessage(definition: PlaybookParameter, value: string): string | null {
  if (value.trim() === '') return definition.required === true ? PARAMETER_REQUIRED_MESSAGE : null;
  const { type } = definition;
  if (isResourceType(type)) return UUID.test(value.trim()) ? null : RESOURCE_MESSAGES[type];
  switch (type) {
    case 'text':
      return textMessage(definition, value);
    case 'code':
      return codeMessage(definition, value);
    case 'checkbox':
      return value === 'true' || value === 'false' ? null : PARAMETER_CHECKBOX_MESSAGE;
    case 'list':
      return optionMessage(definition, value);
    case 'bytes':
    case 'millicores':
      return amountMessage(NUMERIC_FORMATS[type], definition.properties ?? {}, value);
    case 'duration':
      return optionMessage(definition, value) ?? amountMessage(NUMERIC_FORMATS.duration, definition.properties ?? {}, value);
    case 'secret':
      return lengthMessage(definition, value);
  }
}

/** Parameter name → message for every invalid value, and for every value that names no parameter; empty when valid. */
export function validatePlaybookParams(definitions: PlaybookParameter[], values: Record<string, string>): Record<string, string> {
  const problems: [string, string][] = [];
  const known = new Set(definitions.map((definition) => definition.name));
  for (const definition of definitions) {
    const value = Object.hasOwn(values, definition.name) ? values[definition.name] : undefined;
    const message = parameterMessage(definition, typeof value === 'string' ? value : '');
    if (message !== null) problems.push([definition.name, message]);
  }
  for (const name of Object.keys(values)) {
    if (!known.has(name)) problems.push([name, PARAMETER_UNKNOWN_MESSAGE]);
  }
  // fromEntries defines own properties, so a name such as __proto__ is reported rather than swallowed.
  return Object.fromEntries(problems);
}

/** A value as a form or a pasted request holds it (true, 3, an object for code) as the string the run keeps. */
export function normalizeParameterValue(definition: PlaybookParameter, raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'boolean') return raw ? 'true' : 'false';
  if (typeof raw === 'number' || typeof raw === 'bigint') return String(raw);
  if (typeof raw === 'string') {
    const lowered = raw.trim().toLowerCase();
    return definition.type === 'checkbox' && (lowered === 'true' || lowered === 'false') ? lowered : raw;
  }
  return JSON.stringify(raw);
}
