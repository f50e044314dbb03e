import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { CANARY_SPEC_KEYS, CHECK_SCHEMAS, CHECK_TYPES, isSupportedCheckType, type CheckSpecOf, type CheckType } from '@opsdeck/shared';
import { isValidSchedule } from './schedule';

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

const CANARY_KEYS: ReadonlySet<string> = new Set(CANARY_SPEC_KEYS);

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
    if (!isSupportedCheckType(key)) {
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
