import path from 'node:path';
import { isRunnableScraperKind, isScraperKind, parseDurationMs, RUNNABLE_SCRAPER_KINDS, scraperRequiredFields, scriptInterpreterProblem, type RunnableScraperKind } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { isValidSchedule } from '../health';
import { parseGitSource } from './sources/git-checkout';
import { checkEntryFields, checkSpecKeys } from './spec-fields';
import { scraperErrors } from './scraper-errors';
import { normalizeJsonPath } from './transform/json-path-edit';
import { scraperJsonPathProblem } from './transform/json-path-grammar';
import type { ParsedScraperSpec, Retention, SourceEntry } from './types';

export const DEFAULT_SCRAPE_TIMEOUT_MS = 15 * 60_000;
export const MAX_SCRAPE_TIMEOUT_MS = 60 * 60_000;

/** Entry fields that hold a JSONPath when they start with `$`, and a fixed value otherwise (Mission Control's rule). */
const JSONPATH_OR_VALUE_FIELDS = ['id', 'name', 'type', 'class', 'description', 'status', 'health'] as const;
/** Entry fields that are always JSONPaths, alone or as a list. */
const JSONPATH_FIELDS = ['items'] as const;
const JSONPATH_LIST_FIELDS = ['createFields', 'deleteFields'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(base: string, key: string | number): string {
  return typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`;
}

function invalid(field: string, problem: string): never {
  throw errors.invalidScraperSpec(field, problem);
}

/** The spec of a `kind: ScrapeConfig` resource, or the object itself when it is already a bare spec. */
export function unwrapScrapeConfig(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) invalid('spec', 'must be an object: a ScrapeConfig resource or its spec');
  if (value.kind === 'ScrapeConfig' || (typeof value.apiVersion === 'string' && value.spec !== undefined)) {
    if (!isRecord(value.spec)) invalid('spec.spec', 'must be an object');
    return value.spec;
  }
  return value;
}

/** The sources that extract items from documents, where config-db's full mode can split one (sources/full-mode.ts). */
const FULL_MODE_KINDS: ReadonlySet<string> = new Set(['file', 'http', 'sql', 'exec']);

/** The kinds listed with their entries, in the order the spec writes them. */
function sourceEntries(spec: Record<string, unknown>): SourceEntry[] {
  const entries: SourceEntry[] = [];
  const full = spec.full === true;
  for (const [kind, list] of Object.entries(spec)) {
    if (!isScraperKind(kind) || !Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (isRecord(entry)) entries.push(full ? { kind, index, spec: entry, full } : { kind, index, spec: entry });
    });
  }
  return entries;
}

function durationMs(value: unknown): number | null {
  return typeof value === 'string' || typeof value === 'number' ? parseDurationMs(value) : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function retentionOf(value: unknown): Retention {
  const retention = isRecord(value) ? value : {};
  return {
    changes: records(retention.changes)
      .filter((rule) => typeof rule.name === 'string')
      .map((rule) => ({ name: String(rule.name), maxAgeMs: durationMs(rule.age), count: count(rule.count) })),
    types: records(retention.types)
      .filter((rule) => typeof rule.name === 'string')
      .map((rule) => ({
        name: String(rule.name),
        createdAgeMs: durationMs(rule.createdAge),
        updatedAgeMs: durationMs(rule.updatedAge),
        deletedAgeMs: durationMs(rule.deletedAge),
      })),
  };
}

/**
 * What the scheduler runs from a stored spec. Lenient past the save-time rules: a value that does not parse falls back
 * to its default instead of stopping every run of a scraper stored before a rule existed.
 */
export function parseScraperSpec(value: unknown): ParsedScraperSpec {
  const spec = unwrapScrapeConfig(value);
  const schedule = typeof spec.schedule === 'string' && spec.schedule.trim() !== '' ? spec.schedule.trim() : null;
  const timeout = durationMs(spec.timeout);
  return {
    sources: sourceEntries(spec),
    schedule,
    retention: retentionOf(spec.retention),
    timeoutMs: timeout === null || timeout <= 0 ? DEFAULT_SCRAPE_TIMEOUT_MS : Math.min(timeout, MAX_SCRAPE_TIMEOUT_MS),
  };
}

/**
 * `items` is always a JSONPath, written with or without the leading `$` (`.database`); the other fields are one when
 * they start with `$` or `@`, as config-db reads them, and fixed text otherwise.
 */
function checkJsonPath(value: unknown, field: string, alwaysPath: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'string') invalid(field, alwaysPath ? 'must be a JSONPath such as $.items' : 'must be text or a JSONPath');
  const trimmed = value.trim();
  if (!alwaysPath && !trimmed.startsWith('$') && !trimmed.startsWith('@')) return;
  const problem = scraperJsonPathProblem(normalizeJsonPath(trimmed));
  if (problem !== null) invalid(field, `is not a JSONPath that can be used: '${value}' ${problem}`);
}

/** `..` as a whole path segment, also inside a brace expansion (`{a,..}`) where a glob would produce one. */
const PARENT_SEGMENT = /(^|[/{,])\.\.($|[/},])/;
const GLOB_CHARS = /[*?[\]{}()!+@]/;

function isUnder(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => target === root || target.startsWith(root.endsWith('/') ? root : `${root}/`));
}

/** The folder a glob cannot leave: its leading segments without glob characters. */
function staticBase(pattern: string): string {
  const segments = pattern.split('/');
  const index = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  return path.posix.resolve('/', ...(index === -1 ? segments : segments.slice(0, index)));
}

/**
 * A glob a file-reading source may follow: never climbing with `..`, and, when absolute, starting inside one of the
 * roots. A relative glob is looked for under each root, as the file source does, so it cannot leave them.
 */
function checkReadablePath(value: unknown, field: string, roots: readonly string[]): void {
  if (typeof value !== 'string' || value.trim() === '') invalid(field, 'must be a path or glob');
  const pattern = value.trim();
  if (PARENT_SEGMENT.test(pattern)) invalid(field, `'${pattern}' climbs out with '..'; write the path from its root`);
  if (pattern.includes('\0')) invalid(field, 'holds a NUL character');
  if (roots.length === 0) invalid(field, 'cannot be read: this server allows no folders (set OPSDECK_SCRAPE_ROOTS)');
  if (!path.posix.isAbsolute(pattern)) return;
  if (!isUnder(staticBase(path.posix.normalize(pattern)), roots)) invalid(field, `'${pattern}' is outside the scrape roots (OPSDECK_SCRAPE_ROOTS): write it relative to a root`);
}

function checkPathList(value: unknown, field: string, roots: readonly string[]): void {
  if (Array.isArray(value)) value.forEach((item: unknown, index) => checkReadablePath(item, join(field, index), roots));
  else checkReadablePath(value, field, roots);
}

/** A file source with `url`: a public http(s) repository, and paths relative to its root that do not climb out. */
function checkRepositoryFiles(entry: Record<string, unknown>, field: string): void {
  if (typeof entry.url !== 'string') invalid(join(field, 'url'), 'must be a git repository URL');
  const source = parseGitSource(entry.url);
  if ('error' in source) invalid(join(field, 'url'), source.error);
  const paths = Array.isArray(entry.paths) ? entry.paths : [entry.paths];
  paths.forEach((item: unknown, index) => {
    const at = Array.isArray(entry.paths) ? join(join(field, 'paths'), index) : join(field, 'paths');
    if (typeof item !== 'string' || item.trim() === '') invalid(at, 'must be a path or glob');
    if (path.posix.isAbsolute(item) || PARENT_SEGMENT.test(item)) invalid(at, `'${item}' must be relative to the repository's root, without '..'`);
  });
}

function isFilled(value: unknown): boolean {
  return (typeof value === 'string' && value.trim() !== '') || isRecord(value) || (Array.isArray(value) && value.length > 0);
}

function checkRequired(kind: RunnableScraperKind, entry: Record<string, unknown>, field: string): void {
  for (const required of scraperRequiredFields[kind]) {
    const names = [required.field, ...(required.alternatives ?? [])];
    if (names.some((name) => isFilled(entry[name]))) continue;
    const which = names.length === 1 ? `${required.label} is required` : `${required.label} is required (${names.join(' or ')})`;
    invalid(join(field, required.field), which);
  }
}

/**
 * Inline kubeconfig content would hand the server a cluster credential outside the connection store; only a
 * reference is taken: a `connection://namespace/name`, or a `valueFrom` secret or config map reference.
 */
function checkKubeconfig(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') {
    if (value.trim().startsWith('connection://')) return;
    invalid(field, 'must be a connection (connection://namespace/name) or a valueFrom reference, not the kubeconfig itself');
  }
  if (!isRecord(value)) invalid(field, 'must be a connection or a valueFrom reference');
  const inline = value.value;
  if (inline === undefined || inline === '' || (typeof inline === 'string' && inline.trim().startsWith('connection://'))) {
    if (inline === undefined && value.valueFrom === undefined) invalid(field, 'must be a connection or a valueFrom reference');
    return;
  }
  invalid(join(field, 'value'), 'holds an inline kubeconfig; store it as a connection and name it as connection://namespace/name');
}

function checkRetention(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!isRecord(value)) invalid(field, 'must be an object with changes and types');
  const rules: Array<['changes' | 'types', readonly string[]]> = [
    ['changes', ['age']],
    ['types', ['createdAge', 'updatedAge', 'deletedAge']],
  ];
  for (const [list, ages] of rules) {
    const entries = value[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) invalid(join(field, list), 'must be a list');
    entries.forEach((rule: unknown, index) => {
      const at = join(join(field, list), index);
      if (!isRecord(rule)) invalid(at, 'must be an object');
      if (typeof rule.name !== 'string' || rule.name.trim() === '') invalid(join(at, 'name'), 'is required');
      for (const age of ages) {
        if (rule[age] !== undefined && durationMs(rule[age]) === null) invalid(join(at, age), 'must be a duration such as 1h, 7d or 30d');
      }
      if (list === 'changes' && rule.count !== undefined && count(rule.count) === null) invalid(join(at, 'count'), 'must be a whole number of at least 0');
    });
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An exec source's script and the environment it is given: `[{name, value}]`, the value plain or sealed. */
function checkExec(entry: Record<string, unknown>, field: string): void {
  if (typeof entry.script !== 'string' || entry.script.trim() === '') invalid(join(field, 'script'), 'is required: the script to run (bash, or the interpreter its #! line names)');
  if (entry.script.includes('\0')) invalid(join(field, 'script'), 'holds a NUL character');
  const interpreterProblem = scriptInterpreterProblem(entry.script);
  if (interpreterProblem !== null) invalid(join(field, 'script'), `is not run: ${interpreterProblem}`);
  const env = entry.env;
  if (env === undefined) return;
  if (!Array.isArray(env)) invalid(join(field, 'env'), 'must be a list of {name, value}');
  env.forEach((variable: unknown, index) => {
    const at = join(join(field, 'env'), index);
    if (!isRecord(variable) || typeof variable.name !== 'string' || !ENV_NAME.test(variable.name)) invalid(join(at, 'name'), 'must be an environment variable name');
    const extra = Object.keys(variable).filter((key) => key !== 'name' && key !== 'value');
    if (extra.length > 0) invalid(join(at, extra[0] ?? 'value'), 'is not read: give the value itself (it is stored sealed)');
    if (variable.value !== undefined && typeof variable.value !== 'string' && !isRecord(variable.value)) invalid(join(at, 'value'), 'must be text');
  });
}

function checkEntry(kind: RunnableScraperKind, entry: Record<string, unknown>, field: string, roots: readonly string[]): void {
  checkEntryFields(kind, entry, field, scraperJsonPathProblem);
  checkRequired(kind, entry, field);
  if (kind === 'exec') checkExec(entry, field);
  for (const name of JSONPATH_OR_VALUE_FIELDS) checkJsonPath(entry[name], join(field, name), false);
  for (const name of JSONPATH_FIELDS) checkJsonPath(entry[name], join(field, name), true);
  for (const name of JSONPATH_LIST_FIELDS) {
    const list = entry[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) invalid(join(field, name), 'must be a list of JSONPaths');
    list.forEach((item: unknown, index) => checkJsonPath(item, join(join(field, name), index), true));
  }
  if (kind === 'file' && entry.url !== undefined) checkRepositoryFiles(entry, field);
  else if (kind === 'file') checkPathList(entry.paths, join(field, 'paths'), roots);
  if (kind === 'kubernetesFile') {
    const files = entry.files;
    if (files !== undefined && !Array.isArray(files)) invalid(join(field, 'files'), 'must be a list');
    (Array.isArray(files) ? files : []).forEach((file: unknown, index) => {
      const at = join(join(field, 'files'), index);
      if (!isRecord(file)) invalid(at, 'must be an object with path');
      checkPathList(file.path, join(at, 'path'), roots);
    });
  }
  if (kind === 'kubernetes' || kind === 'kubernetesFile') checkKubeconfig(entry.kubeconfig, join(field, 'kubeconfig'));
}

/**
 * The save-time rules of a scraper spec (issue 12, "Bad specs"; ADR 0072): a kind this server runs, only fields it
 * runs (spec-fields.ts), what config-db itself requires, JSONPaths and CEL that parse, globs inside the roots, a
 * schedule and timeout that hold, no inline kubeconfig. Throws OD_SCRAPER_KIND, OD_SCRAPER_FIELD or OD_SCRAPER_SPEC
 * with the field named as `spec.file[0].paths[1]`.
 */
export function validateScraperSpec(value: unknown, options: { roots: readonly string[] }): void {
  const spec = unwrapScrapeConfig(value);
  for (const [kind, list] of Object.entries(spec)) {
    if (!isScraperKind(kind)) continue;
    if (!Array.isArray(list)) invalid(`spec.${kind}`, 'must be a list of sources');
    if (list.length > 0 && !isRunnableScraperKind(kind)) throw errors.scraperKind(`spec.${kind}`, kind, RUNNABLE_SCRAPER_KINDS);
  }
  const entries = sourceEntries(spec);
  for (const [kind, list] of Object.entries(spec)) {
    if (!isScraperKind(kind) || !Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (!isRecord(entry)) invalid(`spec.${kind}[${index}]`, 'must be an object');
    });
  }
  if (entries.length === 0) invalid('spec', `lists no source: add one of ${RUNNABLE_SCRAPER_KINDS.join(', ')}`);
  checkSpecKeys(spec);
  if (spec.schedule !== undefined && spec.schedule !== null) {
    if (typeof spec.schedule !== 'string' || !isValidSchedule(spec.schedule)) invalid('spec.schedule', `'${String(spec.schedule)}' is not a valid schedule (@every 30m, @daily or a cron)`);
  }
  if (spec.timeout !== undefined) {
    const timeout = durationMs(spec.timeout);
    if (timeout === null || timeout <= 0) invalid('spec.timeout', 'must be a duration such as 5m or 1h');
    if (timeout > MAX_SCRAPE_TIMEOUT_MS) invalid('spec.timeout', 'must be at most 1h');
  }
  checkRetention(spec.retention, 'spec.retention');
  if (spec.full !== undefined && typeof spec.full !== 'boolean') invalid('spec.full', 'must be true or false');
  const objectSource = spec.full === true ? entries.find((entry) => !FULL_MODE_KINDS.has(entry.kind)) : undefined;
  if (objectSource !== undefined) {
    throw scraperErrors.field(
      'spec.full',
      `is not run for ${objectSource.kind} sources`,
      `Full mode reads configs that carry their own changes, from ${[...FULL_MODE_KINDS].join(', ')} sources; put the ${objectSource.kind} source in a scraper of its own without full`,
    );
  }
  for (const entry of entries) {
    if (isRunnableScraperKind(entry.kind)) checkEntry(entry.kind, entry.spec, `spec.${entry.kind}[${entry.index}]`, options.roots);
  }
}
