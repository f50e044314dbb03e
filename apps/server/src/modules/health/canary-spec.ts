import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { isValidSchedule } from './schedule';
import { parseDurationMs, parseSizeBytes } from './units';

/**
 * A secret-capable field (spec 001 §3): a static value, written plainly or as {value}, or stored sealed as
 * {$encrypted} (canary-secrets.ts). Sealed values validate here; the scheduler opens them before a check runs, so
 * a checker never sees one.
 */
const secretValue = z
  .union([z.string(), z.object({ value: z.string() }), z.strictObject({ $encrypted: z.string() })])
  .transform((v) => (typeof v === 'string' ? v : 'value' in v ? v.value : ''));
const duration = z.union([z.string(), z.number()]).refine((v) => parseDurationMs(v) !== null, 'must be a duration such as 500ms, 30s or 1h');
const size = z.union([z.string(), z.number()]).refine((v) => parseSizeBytes(v) !== null, 'must be a size such as 512, 10MB or 1Gi');
const labels = z.record(z.string(), z.string());

const common = {
  name: z.string().min(1, 'This field is required'),
  description: z.string().optional(),
  icon: z.string().optional(),
  labels: labels.optional(),
  namespace: z.string().optional(),
  owner: z.string().optional(),
  severity: z.string().optional(),
  timeout: duration.optional(),
  thresholdMillis: z.number().min(0).optional(),
};

const headers = z
  .union([z.record(z.string(), secretValue), z.array(z.object({ name: z.string(), value: secretValue }))])
  .transform((h) => (Array.isArray(h) ? Object.fromEntries(h.map((entry) => [entry.name, entry.value])) : h));

const httpCheck = z.looseObject({
  ...common,
  url: z.string().optional(),
  endpoint: z.string().optional(),
  connection: z.string().optional(),
  method: z.string().default('GET'),
  headers: headers.optional(),
  body: secretValue.optional(),
  authentication: z.object({ username: secretValue, password: secretValue }).optional(),
  responseCodes: z.array(z.number().int()).optional(),
  responseContent: z.string().optional(),
  maxSSLExpiry: z.number().min(0).optional(),
  tlsConfig: z.object({ insecureSkipVerify: z.boolean().optional(), ca: z.string().optional() }).optional(),
});

const tcpCheck = z.looseObject({ ...common, endpoint: z.string().optional(), url: z.string().optional() });

const dnsCheck = z.looseObject({
  ...common,
  server: z.string().optional(),
  port: z.number().int().min(1).max(65535).optional(),
  query: z.string().min(1, 'This field is required'),
  querytype: z.enum(['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'SRV', 'TXT']).default('A'),
  minrecords: z.number().int().min(0).optional(),
  exactreply: z.array(z.string()).optional(),
});

const icmpCheck = z.looseObject({
  ...common,
  endpoint: z.string().min(1, 'This field is required'),
  packetCount: z.number().int().min(1).max(20).default(3),
  packetLossThreshold: z.number().min(0).max(100).default(0),
});

const execCheck = z.looseObject({
  ...common,
  script: z.string().min(1, 'This field is required'),
  env: z.record(z.string(), secretValue).optional(),
});

const sqlCheck = z.looseObject({
  ...common,
  connection: z.string().optional(),
  url: z.string().optional(),
  username: secretValue.optional(),
  password: secretValue.optional(),
  query: z.string().default('SELECT 1'),
  results: z.number().int().min(0).optional(),
});

const redisCheck = z.looseObject({
  ...common,
  addr: z.string().optional(),
  connection: z.string().optional(),
  db: z.coerce.number().int().min(0).default(0),
  username: secretValue.optional(),
  password: secretValue.optional(),
});

const mongoCheck = z.looseObject({
  ...common,
  connection: z.string().optional(),
  url: z.string().optional(),
  username: secretValue.optional(),
  password: secretValue.optional(),
});

const folderFilter = z.object({
  minAge: duration.optional(),
  maxAge: duration.optional(),
  minSize: size.optional(),
  maxSize: size.optional(),
  regex: z.string().optional(),
});

const folderCheck = z.looseObject({
  ...common,
  path: z.string().min(1, 'This field is required'),
  filter: folderFilter.optional(),
  minAge: duration.optional(),
  maxAge: duration.optional(),
  minCount: z.number().int().min(0).optional(),
  maxCount: z.number().int().min(0).optional(),
  minSize: size.optional(),
  maxSize: size.optional(),
});

const prometheusCheck = z.looseObject({
  ...common,
  url: z.string().optional(),
  connection: z.string().optional(),
  query: z.string().min(1, 'This field is required'),
  results: z.number().int().min(0).optional(),
  threshold: z.object({ min: z.number().optional(), max: z.number().optional() }).optional(),
});

/** Checks that talk to a service accept its URL or a stored connection that holds it. */
const hasUrlOrConnection = (spec: { url?: string | undefined; connection?: string | undefined }): boolean =>
  (spec.url ?? '') !== '' || (spec.connection ?? '') !== '';
const urlOrConnectionIssue = { message: 'Set url or connection', path: ['url'] };

const elasticsearchCheck = z
  .looseObject({
    ...common,
    url: z.string().optional(),
    connection: z.string().optional(),
    index: z
      .string()
      .min(1, 'This field is required')
      .refine((index) => !/[\s/\\?#]/.test(index) && index !== '.' && index !== '..', 'must be an index name or pattern (no spaces, /, \\, ? or #)'),
    /** A search body or a bare query clause, as JSON text or as an object; match_all when left out. */
    query: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    results: z.number().int().min(0).optional(),
    authentication: z.object({ username: secretValue, password: secretValue }).optional(),
  })
  .refine(hasUrlOrConnection, urlOrConnectionIssue);

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const labelMatchers = z.record(z.string(), z.string()).superRefine((matchers, context) => {
  for (const label of Object.keys(matchers)) {
    if (!LABEL_NAME.test(label)) context.addIssue({ code: 'custom', message: 'must be a label name (letters, digits and _)', path: [label] });
  }
});

const alertmanagerCheck = z
  .looseObject({
    ...common,
    url: z.string().optional(),
    connection: z.string().optional(),
    /** Alert names or regular expressions (anchored) matched against `alertname`; every alert when empty. */
    alerts: z.array(z.string()).optional(),
    ignore: z.array(z.string()).optional(),
    filters: labelMatchers.optional(),
    exclude_filters: labelMatchers.optional(),
  })
  .refine(hasUrlOrConnection, urlOrConnectionIssue);

const catalogCheck = z.looseObject({
  ...common,
  selector: z
    .object({
      types: z.array(z.string()).optional(),
      name: z.string().optional(),
      statuses: z.array(z.string()).optional(),
      healths: z.array(z.string()).optional(),
      labels: labels.optional(),
    })
    .default({}),
  minCount: z.number().int().min(0).default(1),
  maxCount: z.number().int().min(0).optional(),
});

/** The check kinds that really execute, keyed as they appear in a canary spec. */
export const CHECK_SCHEMAS = {
  http: httpCheck,
  tcp: tcpCheck,
  dns: dnsCheck,
  icmp: icmpCheck,
  exec: execCheck,
  postgres: sqlCheck,
  mysql: sqlCheck,
  redis: redisCheck,
  mongodb: mongoCheck,
  folder: folderCheck,
  prometheus: prometheusCheck,
  catalog: catalogCheck,
  elasticsearch: elasticsearchCheck,
  alertmanager: alertmanagerCheck,
} as const;

export type CheckType = keyof typeof CHECK_SCHEMAS;
export const CHECK_TYPES = Object.keys(CHECK_SCHEMAS) as CheckType[];
export type CheckSpecOf<T extends CheckType> = z.output<(typeof CHECK_SCHEMAS)[T]>;
export type HttpCheckSpec = CheckSpecOf<'http'>;
export type TcpCheckSpec = CheckSpecOf<'tcp'>;
export type DnsCheckSpec = CheckSpecOf<'dns'>;
export type IcmpCheckSpec = CheckSpecOf<'icmp'>;
export type ExecCheckSpec = CheckSpecOf<'exec'>;
export type SqlCheckSpec = CheckSpecOf<'postgres'>;
export type RedisCheckSpec = CheckSpecOf<'redis'>;
export type MongoCheckSpec = CheckSpecOf<'mongodb'>;
export type FolderCheckSpec = CheckSpecOf<'folder'>;
export type PrometheusCheckSpec = CheckSpecOf<'prometheus'>;
export type CatalogCheckSpec = CheckSpecOf<'catalog'>;
export type ElasticsearchCheckSpec = CheckSpecOf<'elasticsearch'>;
export type AlertmanagerCheckSpec = CheckSpecOf<'alertmanager'>;

function isCheckType(key: string): key is CheckType {
  return Object.hasOwn(CHECK_SCHEMAS, key);
}

/** One check as a canary spec defines it: what the checks row stores. */
export interface CheckDefinition {
  type: CheckType;
  name: string;
  description: string | null;
  icon: string | null;
  endpoint: string | null;
  owner: string | null;
  severity: string | null;
  labels: Record<string, string>;
  /** The check's entry as written in the canary (before defaults), so the Spec tab shows what the author wrote. */
  spec: Record<string, unknown>;
}

export class CanarySpecError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join('; '));
    this.name = 'CanarySpecError';
  }
}

const canaryLevel = z.looseObject({
  schedule: z.string().refine(isValidSchedule, 'is not a valid schedule (@every 30s, @hourly, or cron)').optional(),
  interval: z.number().int().min(1).optional(),
});

/** Keys of a canary spec that configure the canary rather than list checks. */
const CANARY_KEYS = new Set(['schedule', 'interval', 'owner', 'severity', 'icon', 'labels', 'description', 'replicas', 'env', 'resultMode']);

function endpointOf(type: CheckType, entry: Record<string, unknown>): string | null {
  const pick = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = entry[key];
      if (typeof value === 'string' && value !== '') return value;
    }
    return null;
  };
  switch (type) {
    case 'dns':
      return pick('query');
    case 'exec':
      return null;
    case 'folder':
      return pick('path');
    case 'redis':
      return pick('addr', 'connection');
    case 'catalog':
      return null;
    default:
      return pick('url', 'endpoint', 'addr', 'connection');
  }
}

/**
 * Validates a canary spec (the document the YAML editor holds, or a full `kind: Canary` resource) and lists the
 * checks it defines. Names must be unique per type, since (canary, type, name) identifies a check across saves.
 */
export function checksFromCanarySpec(raw: unknown): CheckDefinition[] {
  const spec = unwrapResource(raw);
  const issues: string[] = [];
  const level = canaryLevel.safeParse(spec);
  if (!level.success) issues.push(...level.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  const definitions: CheckDefinition[] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(spec)) {
    if (CANARY_KEYS.has(key)) continue;
    if (!isCheckType(key)) {
      issues.push(`${key}: check type is not supported (supported: ${CHECK_TYPES.join(', ')})`);
      continue;
    }
    if (!Array.isArray(value)) {
      issues.push(`${key}: must be a list of checks`);
      continue;
    }
    value.forEach((entry: unknown, index) => {
      const parsed = CHECK_SCHEMAS[key].safeParse(entry);
      if (!parsed.success) {
        issues.push(...parsed.error.issues.map((issue) => `${key}[${index}].${issue.path.join('.')}: ${issue.message}`));
        return;
      }
      const entryObject = entry as Record<string, unknown>;
      const data = parsed.data;
      if (seen.has(`${key}/${data.name}`)) {
        issues.push(`${key}[${index}].name: '${data.name}' is used twice`);
        return;
      }
      seen.add(`${key}/${data.name}`);
      definitions.push({
        type: key,
        name: data.name,
        description: data.description ?? null,
        icon: data.icon ?? null,
        endpoint: endpointOf(key, entryObject),
        owner: data.owner ?? null,
        severity: data.severity ?? null,
        labels: data.labels ?? {},
        spec: entryObject,
      });
    });
  }
  if (issues.length > 0) throw new CanarySpecError(issues);
  return definitions;
}

/** Accepts the bare spec or a `{apiVersion, kind: Canary, metadata, spec}` resource. */
export function unwrapResource(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CanarySpecError(['spec: must be an object']);
  const record = raw as Record<string, unknown>;
  if (typeof record.kind === 'string' && typeof record.spec === 'object' && record.spec !== null && !Array.isArray(record.spec)) {
    return record.spec as Record<string, unknown>;
  }
  return record;
}

export function parseCanaryYaml(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 50 });
  } catch (error) {
    throw new CanarySpecError([`yaml: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return unwrapResource(parsed ?? {});
}

/** Parses a stored check spec with its type's schema (defaults applied); throws with the issues when it no longer fits. */
export function parseCheckSpec<T extends CheckType>(type: T, spec: unknown): CheckSpecOf<T> {
  const parsed = CHECK_SCHEMAS[type].safeParse(spec);
  if (!parsed.success) throw new CanarySpecError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  return parsed.data as CheckSpecOf<T>;
}

export function isSupportedCheckType(type: string): type is CheckType {
  return isCheckType(type);
}
