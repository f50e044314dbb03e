import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import {
  CANARY_FIELD_RULES,
  canaryLevelSchema,
  CHECK_FIELD_RULES,
  CHECK_SCHEMAS,
  CHECK_TYPES,
  CHECK_TYPES_NOT_RUN,
  checkRelationshipsSchema,
  isSupportedCheckType,
  JUNIT_MODE_REFUSED,
  type CheckSpecOf,
  type CheckType,
  type FieldRules,
} from '@opsdeck/shared';
import { errors, type AppError } from '../../platform/errors';
import { checkExpressionSyntax } from './check-expressions';
import { isValidSchedule } from './schedule';

/** One check as a canary spec defines it: what the checks row stores. */
export interface CheckDefinition {
  /** A check type of the spec, or the junit report that runs them all (`resultMode: junit`). */
  type: CheckType | typeof JUNIT_CHECK_TYPE;
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

/**
 * What is wrong with a part of a spec: a check type or a field this server does not run (refused on purpose, ADR
 * 0069), or a value that does not fit its field.
 */
export type SpecIssueKind = 'type-not-run' | 'field-not-run' | 'invalid';

export interface SpecIssue {
  kind: SpecIssueKind;
  /** Where in the spec: `schedule`, `http[0].tlsConfig.cert`, `kubernetes`. */
  path: string;
  message: string;
}

export class CanarySpecError extends Error {
  /** Each issue as `path: message`. */
  readonly issues: string[];
  readonly detailed: SpecIssue[];

  constructor(issues: ReadonlyArray<SpecIssue | string>) {
    const detailed = issues.map((issue): SpecIssue => (typeof issue === 'string' ? { kind: 'invalid', path: issue.split(':', 1)[0] ?? '', message: issue } : issue));
    const lines = issues.map((issue) => (typeof issue === 'string' ? issue : `${issue.path}: ${issue.message}`));
    super(lines.join('; '));
    this.name = 'CanarySpecError';
    this.issues = lines;
    this.detailed = detailed;
  }
}

const canaryLevel = canaryLevelSchema.extend({
  schedule: z
    .string()
    .refine(isValidSchedule, { error: (issue) => `'${String(issue.input)}' is not a valid schedule (@every 30s, @hourly, or a 5- or 6-field cron)` })
    .optional(),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/** `http[0]` + `['headers', 1, 'value']` → `http[0].headers[1].value`. */
function pathOf(prefix: string, segments: ReadonlyArray<PropertyKey>): string {
  return segments.reduce<string>((path, segment) => {
    if (typeof segment === 'number') return `${path}[${segment}]`;
    const key = String(segment);
    return path === '' ? key : `${path}.${key}`;
  }, prefix);
}

interface Holder {
  path: string;
  parent: Record<string, unknown>;
  key: string;
  /** The list entry the field sits in, if any: the whole entry goes, since what is left of it means nothing alone. */
  entry: { list: unknown[]; element: Record<string, unknown> } | null;
  /**
   * Where `parent` itself sits, and its own holders outward (`password` for `password.valueFrom.helmRef`): each goes
   * too when nothing else is left in it.
   */
  owners: ReadonlyArray<{ parent: Record<string, unknown>; key: string }>;
}

/** Where `node` holds the catalogue path `segments` (`['headers[]', 'valueFrom']`); check-catalogue.ts has the grammar. */
function holdersOf(
  node: Record<string, unknown>,
  segments: readonly string[],
  prefix: string,
  entry: Holder['entry'] = null,
  owners: Holder['owners'] = [],
): Holder[] {
  const [first, ...rest] = segments;
  if (first === undefined) return [];
  const isList = first.endsWith('[]');
  const key = isList ? first.slice(0, -2) : first;
  if (!Object.hasOwn(node, key)) return [];
  const value = node[key];
  const path = pathOf(prefix, [key]);
  if (isList) {
    if (!Array.isArray(value)) return [];
    if (rest.length === 0) return [{ path, parent: node, key, entry, owners }];
    return value.flatMap((element: unknown, index) => (isRecord(element) ? holdersOf(element, rest, `${path}[${index}]`, { list: value, element }) : []));
  }
  if (rest.length === 0) return [{ path, parent: node, key, entry, owners }];
  return isRecord(value) ? holdersOf(value, rest, path, entry, [{ parent: node, key }, ...owners]) : [];
}

/**
 * The fields of `entry` the catalogue refuses, each with what runs instead, and a copy of the entry without them, so
 * the schema then judges only the rest: a refused field is reported once, as refused, never also as malformed.
 */
function withoutRefused(rules: FieldRules, entry: Record<string, unknown>, prefix: string): { issues: SpecIssue[]; rest: Record<string, unknown> } {
  // Through JSON, not structuredClone: a value the spec shares between two fields (a YAML alias) must become two values.
  const rest = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
  const issues: SpecIssue[] = [];
  const emptied: Array<NonNullable<Holder['entry']>> = [];
  for (const [rulePath, rule] of Object.entries(rules)) {
    if (rule.verdict !== 'refused') continue;
    for (const holder of holdersOf(rest, rulePath.split('.'), prefix)) {
      issues.push({ kind: 'field-not-run', path: holder.path, message: `not run by this server. ${rule.note}` });
      Reflect.deleteProperty(holder.parent, holder.key);
      let emptiedNode = holder.parent;
      for (const owner of holder.owners) {
        if (Object.keys(emptiedNode).length > 0) break;
        Reflect.deleteProperty(owner.parent, owner.key);
        emptiedNode = owner.parent;
      }
      if (holder.entry !== null) emptied.push(holder.entry);
    }
  }
  for (const { list, element } of emptied) {
    const index = list.indexOf(element);
    if (index !== -1) list.splice(index, 1);
  }
  return { issues, rest };
}

/**
 * The schema's issues as spec issues, one per unknown key: a key the catalogue does not know is no field of
 * canary-checker's either (a typo, or another tool's), so the spec is invalid rather than asking for something not run.
 */
function schemaIssues(type: CheckType, prefix: string, error: z.ZodError): SpecIssue[] {
  return error.issues.flatMap((issue): SpecIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        kind: 'invalid',
        path: pathOf(prefix, [...issue.path, key]),
        message: `is not a field of ${type} checks (docs/compatibility.md lists every field and what this server does with it)`,
      }));
    }
    return [{ kind: 'invalid', path: pathOf(prefix, issue.path), message: issue.message }];
  });
}

const SUPPORTED = `this server runs ${CHECK_TYPES.join(', ')}`;

/** A key of a canary spec that is not one of its check lists: a canary field, or what is refused about it. */
function canaryKeyIssue(key: string): SpecIssue | null {
  const rule = CANARY_FIELD_RULES[key];
  if (rule !== undefined) return rule.verdict === 'refused' ? { kind: 'field-not-run', path: key, message: `not run by this server. ${rule.note}` } : null;
  const what = CHECK_TYPES_NOT_RUN[key];
  if (what !== undefined) return { kind: 'type-not-run', path: key, message: `${key} checks (canary-checker's check that ${what}) are not run by this server; ${SUPPORTED}` };
  return { kind: 'invalid', path: key, message: `check type is not supported: it is neither a canary field nor a check type of canary-checker; ${SUPPORTED}` };
}

function checkEntryIssue(path: string, message: string): SpecIssue {
  return { kind: 'invalid', path, message };
}

/**
 * The type of the one check row of a canary with `resultMode: junit`: canary-checker records its combined result as a
 * `junit` check ("Result Mode: JUnit Report"), so Mission Control's readers see the same type. No canary lists checks
 * of this type (canary-checker's `junit` check type is refused at save), so the row cannot meet one of the spec's.
 */
export const JUNIT_CHECK_TYPE = 'junit';
/** canary-checker's description of the combined check. */
export const JUNIT_CHECK_DESCRIPTION = 'Result Mode: JUnit Report';

/**
 * Whether a check row's spec is a junit report's: its canary's check lists with `resultMode: junit`. A check's own
 * entry never has that key (the schemas are strict), so the key tells the two apart.
 */
export function isJunitReportSpec(spec: unknown): spec is Record<string, unknown> {
  return isRecord(spec) && spec.resultMode === 'junit';
}

export interface CanarySpecOptions {
  /** The canary's name: the one check row of a `resultMode: junit` canary is named after it. */
  canaryName?: string;
}

/** `metadata.name` of a `kind: Canary` resource, the name a junit report takes when no canary name is given. */
function resourceName(raw: unknown): string | null {
  if (!isRecord(raw) || !isRecord(raw.metadata)) return null;
  const name = raw.metadata.name;
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * Validates a canary spec (the document the YAML editor holds, or a full `kind: Canary` resource) and lists the
 * check rows it defines. Every key and field is judged by check-catalogue.ts: what does not run is refused, never stored
 * and ignored (ADR 0069). Names must be unique per type, since (canary, type, name) identifies a check across saves.
 * With `resultMode: junit` the canary has one row, its JUnit report (junitReportDefinition), that runs them all.
 */
export function checksFromCanarySpec(raw: unknown, options: CanarySpecOptions = {}): CheckDefinition[] {
  const spec = unwrapResource(raw);
  const definitions = judgedChecks(spec);
  // A junit canary without checks has nothing to report, as a canary without checks has no rows.
  if (!isJunitReportSpec(spec) || definitions.length === 0) return definitions;
  return [junitReportDefinition(spec, options.canaryName ?? resourceName(raw) ?? JUNIT_CHECK_TYPE)];
}

/**
 * The checks a junit report row runs, judged as a save judges them: its stored spec is its canary's check lists with
 * `resultMode: junit`, so a row that no longer validates (written through the data API, or saved before a rule) fails
 * its run by the same issues rather than running part of it.
 */
export function junitReportChecks(rowSpec: unknown): CheckDefinition[] {
  const spec = unwrapResource(rowSpec);
  if (!isJunitReportSpec(spec)) throw new CanarySpecError([{ kind: 'invalid', path: 'resultMode', message: `a ${JUNIT_CHECK_TYPE} check's spec must have resultMode: junit` }]);
  return judgedChecks(spec);
}

/**
 * The one row of a junit canary: its spec is the canary's check lists as written (secrets sealed in place, each bound
 * to its own check's destination as in the canary) with `resultMode: junit`, which is itself a canary spec, so the Spec
 * tab shows one that can be pasted back, and every run judges it again (junitReportChecks).
 */
function junitReportDefinition(spec: Record<string, unknown>, canaryName: string): CheckDefinition {
  const lists = Object.entries(spec).filter(([key, value]) => isSupportedCheckType(key) && Array.isArray(value));
  return {
    type: JUNIT_CHECK_TYPE,
    name: canaryName,
    description: JUNIT_CHECK_DESCRIPTION,
    icon: null,
    endpoint: null,
    owner: null,
    severity: null,
    labels: {},
    spec: { resultMode: 'junit', ...Object.fromEntries(lists) },
  };
}

/**
 * What a junit canary cannot combine (JUNIT_MODE_REFUSED): fields that need a check row of their own, refused by name
 * rather than dropped, since the canary's one row is its report.
 */
function junitModeIssues(type: CheckType, entry: Record<string, unknown>, prefix: string): SpecIssue[] {
  return JUNIT_MODE_REFUSED.filter(({ field, types }) => (types === 'every' || types.includes(type)) && entry[field] !== undefined).map(({ field, note }) => ({
    kind: 'field-not-run',
    path: `${prefix}.${field}`,
    message: `not run with resultMode: junit. ${note}`,
  }));
}

/** The per-check definitions of a spec (already unwrapped), every issue of it thrown together. */
function judgedChecks(spec: Record<string, unknown>): CheckDefinition[] {
  const junit = isJunitReportSpec(spec);
  const issues: SpecIssue[] = [];
  const level = canaryLevel.safeParse(spec);
  if (!level.success) issues.push(...level.error.issues.map((issue) => checkEntryIssue(pathOf('', issue.path), issue.message)));
  const definitions: CheckDefinition[] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(spec)) {
    if (!isSupportedCheckType(key)) {
      const issue = canaryKeyIssue(key);
      if (issue !== null) issues.push(issue);
      continue;
    }
    if (!Array.isArray(value)) {
      issues.push(checkEntryIssue(key, 'must be a list of checks'));
      continue;
    }
    value.forEach((entry: unknown, index) => {
      const prefix = `${key}[${index}]`;
      if (!isRecord(entry)) {
        issues.push(checkEntryIssue(prefix, 'must be an object'));
        return;
      }
      const refusals = withoutRefused(CHECK_FIELD_RULES[key], entry, prefix);
      issues.push(...refusals.issues);
      if (junit) issues.push(...junitModeIssues(key, entry, prefix));
      const parsed = CHECK_SCHEMAS[key].safeParse(refusals.rest);
      if (!parsed.success) {
        issues.push(...schemaIssues(key, prefix, parsed.error));
        return;
      }
      if (refusals.issues.length > 0) return;
      const data = parsed.data;
      if (seen.has(`${key}/${data.name}`)) {
        issues.push(checkEntryIssue(`${prefix}.name`, `'${data.name}' is used twice`));
        return;
      }
      seen.add(`${key}/${data.name}`);
      definitions.push({
        type: key,
        name: data.name,
        description: data.description ?? null,
        icon: data.icon ?? null,
        endpoint: endpointOf(key, entry),
        owner: data.owner ?? null,
        severity: data.severity ?? null,
        labels: data.labels ?? {},
        spec: entry,
      });
    });
  }
  issues.push(...dependencyIssues(definitions), ...relationshipIssues(definitions));
  if (issues.length > 0) throw new CanarySpecError(issues);
  return definitions;
}

/** The CEL of a check's `relationships` parses, so a selector never fails only in the server's log. */
function relationshipIssues(definitions: readonly CheckDefinition[]): SpecIssue[] {
  const issues: SpecIssue[] = [];
  for (const definition of definitions) {
    const parsed = checkRelationshipsSchema.safeParse(definition.spec.relationships);
    if (!parsed.success || parsed.data === undefined) continue;
    for (const kind of ['components', 'configs'] as const) {
      for (const [index, selector] of (parsed.data[kind] ?? []).entries()) {
        for (const [field, value] of Object.entries(selector)) {
          const problem = value?.expr === undefined ? null : checkExpressionSyntax(value.expr);
          if (problem !== null) issues.push(checkEntryIssue(`${definition.type}.${definition.name}.relationships.${kind}[${index}].${field}.expr`, problem));
        }
      }
    }
  }
  return issues;
}

/** A check's `dependsOn` names checks of its canary, none twice over (by type) and none in a cycle. */
function dependencyIssues(definitions: readonly CheckDefinition[]): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const types = new Map<string, string[]>();
  for (const definition of definitions) types.set(definition.name, [...(types.get(definition.name) ?? []), definition.type]);
  const edges = new Map<string, string[]>();
  definitions.forEach((definition) => {
    const names = Array.isArray(definition.spec.dependsOn) ? definition.spec.dependsOn.filter((name): name is string => typeof name === 'string') : [];
    const at = `${definition.type}.${definition.name}.dependsOn`;
    for (const name of names) {
      const found = types.get(name) ?? [];
      if (name === definition.name) issues.push(checkEntryIssue(at, `'${name}' is the check itself`));
      else if (found.length === 0) issues.push(checkEntryIssue(at, `'${name}' is not a check of this canary`));
      else if (found.length > 1) issues.push(checkEntryIssue(at, `'${name}' names checks of ${found.join(' and ')}: rename one of them`));
    }
    edges.set(definition.name, names);
  });
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: readonly string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      issues.push(checkEntryIssue(`${name}.dependsOn`, `forms a cycle: ${[...path, name].join(' -> ')}`));
      return;
    }
    state.set(name, 'visiting');
    for (const next of edges.get(name) ?? []) if (edges.has(next)) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of edges.keys()) visit(name, []);
  return issues;
}

/** At most this many paths in a message; details list them all. */
const PATHS_IN_MESSAGE = 5;

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, PATHS_IN_MESSAGE).join(', ');
  return paths.length > PATHS_IN_MESSAGE ? `${shown} and ${paths.length - PATHS_IN_MESSAGE} more` : shown;
}

/**
 * The coded 400 for a spec that does not validate: check types this server does not run first, then fields it does
 * not run, then any other problem; `details` lists every issue whichever code answers.
 */
export function canarySpecRefusal(error: CanarySpecError): AppError {
  const details = error.issues.join('; ');
  const pathsOf = (kind: SpecIssueKind): string[] => [...new Set(error.detailed.filter((issue) => issue.kind === kind).map((issue) => issue.path))];
  const types = pathsOf('type-not-run');
  if (types.length > 0) return errors.checkTypeNotRun(listed(types), CHECK_TYPES, details);
  const fields = pathsOf('field-not-run');
  if (fields.length > 0) return errors.checkFieldNotRun(listed(fields), details);
  return errors.invalidCanarySpec(details);
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
  if (!parsed.success) throw new CanarySpecError(schemaIssues(type, '', parsed.error));
  return parsed.data as CheckSpecOf<T>;
}
