import { createHash } from 'node:crypto';
import { isRecord, list, record, strings, text } from '../../../platform/json-values';
import type { DiffChangeRules, ItemKey, ScrapedChange, ScrapedItem, ScrapedRelationship, ScrapeError, ScrapeResult } from '../types';
import { deleteAtPath, replaceAtPath } from './json-path-edit';
import { renderGoTemplate } from '../../../platform/go-template/render';
import { fillTemplate } from './property-template';
import { evaluateCel, evaluateCelBool } from './scrape-cel';

/**
 * A source entry's `transform` and `properties`, applied to what the source found before it is ingested, in
 * config-db's order per config: properties, exclude, relationships, then masks; and to the changes the source
 * reported: mapping, then exclude. The script (`transform.expr`) runs earlier, on each document, in extract.ts.
 * The run's signal bounds the work: it is checked between configs, so a transform never outlives the run's timeout.
 */

const SEVERITIES = new Set<ScrapedChange['severity']>(['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']);

export class TransformStopped extends Error {}

function keyOf(item: ItemKey): string {
  return `${item.type}\u0000${item.externalId}`;
}

/** config-db's collections.MatchItems: globs with `*`, and `!pattern` to leave out. */
export function matchesGlobs(value: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const toRegExp = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const excluded = patterns.filter((pattern) => pattern.startsWith('!')).some((pattern) => toRegExp(pattern.slice(1)).test(value));
  if (excluded) return false;
  const included = patterns.filter((pattern) => !pattern.startsWith('!'));
  return included.length === 0 || included.some((pattern) => toRegExp(pattern).test(value));
}

/** The variables of one config, named as config-db's ScrapeResult.AsMap names them. */
export function itemVariables(item: ScrapedItem): Record<string, unknown> {
  return {
    config: item.config,
    id: item.externalId,
    name: item.name,
    config_type: item.type,
    config_class: item.type.split('::')[0] ?? item.type,
    description: item.description ?? '',
    status: item.status ?? '',
    health: item.health ?? '',
    labels: item.labels,
    tags: item.tags,
    source: item.source ?? '',
    format: item.format,
  };
}

class Transformer {
  readonly errors: ScrapeError[] = [];

  constructor(
    private readonly where: string,
    private readonly signal: AbortSignal,
  ) {}

  checkTime(): void {
    if (this.signal.aborted) throw new TransformStopped('the run was stopped (timeout or shutdown) during the transform');
  }

  fail(what: string, error: unknown): void {
    this.errors.push({ where: `${this.where} ${what}`, message: error instanceof Error ? error.message : String(error) });
  }

  /** A filter that cannot be judged counts as not matching, with its error reported. */
  passes(filter: unknown, variables: Record<string, unknown>, what: string, kind: 'item' | 'change' = 'item'): boolean {
    if (typeof filter !== 'string' || filter.trim() === '') return true;
    try {
      return evaluateCelBool(kind, filter, variables);
    } catch (error) {
      this.fail(what, error);
      return false;
    }
  }
}

function propertiesOf(specs: readonly Record<string, unknown>[], item: ScrapedItem, transformer: Transformer): Array<Record<string, unknown>> {
  const variables = itemVariables(item);
  const out: Array<Record<string, unknown>> = [];
  specs.forEach((spec, index) => {
    if (!transformer.passes(spec.filter, variables, `properties[${index}].filter`)) return;
    const property: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(spec)) {
      if (field === 'filter') continue;
      if (field === 'links') property.links = list(value).map((link) => Object.fromEntries(Object.entries(link).map(([key, entry]) => [key, typeof entry === 'string' ? fillTemplate(entry, variables) : entry])));
      else property[field] = typeof value === 'string' ? fillTemplate(value, variables) : value;
    }
    out.push(property);
  });
  return out;
}

function exclude(rules: readonly Record<string, unknown>[], item: ScrapedItem, transformer: Transformer): void {
  rules.forEach((rule, index) => {
    const path = text(rule.jsonpath);
    if (path === undefined || !matchesGlobs(item.type, strings(rule.types))) return;
    try {
      deleteAtPath(item.config, path);
    } catch (error) {
      transformer.fail(`transform.exclude[${index}]`, error);
    }
  });
}

function md5Of(value: unknown): string {
  return createHash('md5')
    .update(typeof value === 'string' ? value : JSON.stringify(value) ?? '')
    .digest('hex');
}

/** A mask without a selector applies to nothing, as in config-db. */
function mask(rules: readonly Record<string, unknown>[], item: ScrapedItem, transformer: Transformer): void {
  rules.forEach((rule, index) => {
    const path = text(rule.jsonpath);
    const selector = text(rule.selector);
    if (path === undefined || selector === undefined) return;
    if (!transformer.passes(selector, itemVariables(item), `transform.mask[${index}].selector`)) return;
    const value = typeof rule.value === 'string' ? rule.value : '';
    try {
      replaceAtPath(item.config, path, (found) => (value === 'md5sum' ? md5Of(found) : value));
    } catch (error) {
      transformer.fail(`transform.mask[${index}]`, error);
    }
  });
}

interface Selector {
  id?: string;
  name?: string;
  type?: string;
  namespace?: string;
  labels?: Record<string, string>;
}

/** One field of a relationship entry: `{value}`, `{label}` (a label of the config) or `{expr}` (CEL), or plain text. */
function lookupValue(raw: unknown, item: ScrapedItem, variables: Record<string, unknown>): string | undefined {
  if (typeof raw === 'string') return raw === '' ? undefined : raw;
  const lookup = record(raw);
  if (typeof lookup.value === 'string') return lookup.value === '' ? undefined : lookup.value;
  if (typeof lookup.label === 'string') return text(item.labels[lookup.label] ?? item.tags[lookup.label]);
  if (typeof lookup.expr === 'string') {
    const value = evaluateCel('item', lookup.expr, variables);
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  }
  return undefined;
}

function selectorsOf(rule: Record<string, unknown>, item: ScrapedItem, variables: Record<string, unknown>): Selector[] {
  if (typeof rule.expr === 'string' && rule.expr.trim() !== '') {
    let value = evaluateCel('item', rule.expr, variables);
    if (typeof value === 'string') value = JSON.parse(value) as unknown;
    const found: unknown[] = Array.isArray(value) ? value : [value];
    return found.filter(isRecord).map((entry) => ({
      id: text(entry.id) ?? text(entry.external_id),
      name: text(entry.name),
      type: text(entry.type),
      namespace: text(entry.namespace),
      labels: Object.fromEntries(Object.entries(record(entry.labels)).filter((pair): pair is [string, string] => typeof pair[1] === 'string')),
    }));
  }
  const labels = Object.fromEntries(
    Object.entries(record(rule.labels))
      .map(([label, raw]) => [label, lookupValue(raw, item, variables)] as const)
      .filter((pair): pair is readonly [string, string] => pair[1] !== undefined),
  );
  const selector: Selector = {
    id: lookupValue(rule.id, item, variables) ?? lookupValue(rule.external_id, item, variables),
    name: lookupValue(rule.name, item, variables),
    type: lookupValue(rule.type, item, variables),
    namespace: lookupValue(rule.namespace, item, variables),
    labels,
  };
  return [selector];
}

function isEmptySelector(selector: Selector): boolean {
  return selector.id === undefined && selector.name === undefined && selector.type === undefined && selector.namespace === undefined && Object.keys(selector.labels ?? {}).length === 0;
}

function selects(selector: Selector, candidate: ScrapedItem): boolean {
  if (selector.id !== undefined && candidate.externalId !== selector.id && !(candidate.aliases ?? []).includes(selector.id)) return false;
  if (selector.name !== undefined && candidate.name !== selector.name) return false;
  if (selector.type !== undefined && candidate.type !== selector.type) return false;
  if (selector.namespace !== undefined && (candidate.tags.namespace ?? candidate.labels.namespace) !== selector.namespace) return false;
  return Object.entries(selector.labels ?? {}).every(([label, value]) => candidate.labels[label] === value || candidate.tags[label] === value);
}

/** Links each config a rule's filter picks to the configs of this run its selectors match; a config never links to itself. */
function relationships(rules: readonly Record<string, unknown>[], items: readonly ScrapedItem[], transformer: Transformer): ScrapedRelationship[] {
  const links: ScrapedRelationship[] = [];
  if (rules.length === 0) return links;
  const seen = new Set<string>();
  for (const item of items) {
    transformer.checkTime();
    const variables = itemVariables(item);
    rules.forEach((rule, index) => {
      if (!transformer.passes(rule.filter, variables, `transform.relationship[${index}].filter`)) return;
      let selectors: Selector[];
      try {
        selectors = selectorsOf(rule, item, variables).filter((selector) => !isEmptySelector(selector));
      } catch (error) {
        transformer.fail(`transform.relationship[${index}]`, error);
        return;
      }
      for (const selector of selectors) {
        for (const candidate of items) {
          if (candidate === item || !selects(selector, candidate)) continue;
          const key = `${keyOf(item)}\u0001${keyOf(candidate)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          links.push({ from: { type: item.type, externalId: item.externalId }, to: { type: candidate.type, externalId: candidate.externalId }, relation: 'related' });
        }
      }
    });
  }
  return links;
}

/**
 * What a change mapping or exclusion reads, as config-db gives it: the change's own fields (ChangeResult.AsMap), the
 * change again as `change` and its merge patch as `patch` (both deprecated there, still in its fixtures), and the
 * config it belongs to. config-db gives mappings and exclusions slightly different sets; both read this one, which holds
 * each of them, so an expression either accepts means here what it means there.
 */
function changeVariables(change: ScrapedChange, item: ScrapedItem | undefined): Record<string, unknown> {
  const own = {
    change_type: change.changeType,
    // No source here reports an action or an author; the names are there so config-db's expressions check.
    action: '',
    severity: change.severity,
    summary: change.summary,
    source: change.source,
    details: change.details ?? {},
    external_id: change.item.externalId,
    external_change_id: change.externalChangeId,
    config_type: change.item.type,
    created_at: change.createdAt,
    created_by: null,
    patches: change.patch === undefined ? '' : JSON.stringify(change.patch),
    diff: change.diff ?? null,
  };
  return {
    ...own,
    change: own,
    patch: change.patch ?? {},
    config: item?.config ?? null,
    config_item: item === undefined ? null : itemVariables(item),
    name: item?.name ?? '',
    config_class: item === undefined ? '' : (item.type.split('::')[0] ?? item.type),
    labels: item?.labels ?? {},
    tags: item?.tags ?? {},
  };
}

/** A summary is rendered from the rule's source as one. */
const SUMMARY_TEMPLATE_STEPS = 10_000;
/** The length config_changes.summary keeps. */
const SUMMARY_TEMPLATE_OUTPUT = 100_000;

/**
 * A mapping's summary, a Go template over the change's variables as config-db renders it (`{{.summary}} on
 * {{.config.metadata.name}}`); one that fails to render leaves the summary as it was and is reported, as there.
 */
function summaryOf(template: unknown, change: ScrapedChange, item: ScrapedItem | undefined, transformer: Transformer, what: string): string | undefined {
  const source = text(template);
  if (source === undefined) return undefined;
  try {
    return renderGoTemplate(source, changeVariables(change, item), { maxSteps: SUMMARY_TEMPLATE_STEPS, maxOutput: SUMMARY_TEMPLATE_OUTPUT });
  } catch (error) {
    transformer.fail(what, error);
    return undefined;
  }
}

/** What the rules made of one change: the change as mapped, or null when a mapping ignored it or an exclusion held. */
function mapChange(spec: Record<string, unknown>, original: ScrapedChange, item: ScrapedItem | undefined, transformer: Transformer): ScrapedChange | null {
  let change = original;
  let ignored = false;
  list(spec.mapping).forEach((mapping, index) => {
    if (!transformer.passes(mapping.filter, changeVariables(change, item), `transform.changes.mapping[${index}].filter`, 'change')) return;
    if (mapping.action === 'ignore') ignored = true;
    const severity = text(mapping.severity);
    const summary = summaryOf(mapping.summary, change, item, transformer, `transform.changes.mapping[${index}].summary`);
    change = {
      ...change,
      ...(text(mapping.type) === undefined ? {} : { changeType: String(mapping.type) }),
      ...(severity !== undefined && SEVERITIES.has(severity as ScrapedChange['severity']) ? { severity: severity as ScrapedChange['severity'] } : {}),
      ...(summary === undefined ? {} : { summary }),
    };
  });
  if (ignored) return null;
  const variables = changeVariables(change, item);
  const excluded = strings(spec.exclude).some((expression, index) => {
    try {
      return evaluateCelBool('change', expression, variables);
    } catch (error) {
      // config-db keeps a change whose exclusion cannot be judged, and says so.
      transformer.fail(`transform.changes.exclude[${index}]`, error);
      return false;
    }
  });
  return excluded ? null : change;
}

function hasChangeRules(spec: Record<string, unknown>): boolean {
  return list(spec.mapping).length > 0 || strings(spec.exclude).length > 0;
}

/** Every mapping whose filter holds applies, in order (a later one overrides); then a change any exclude holds for is dropped. */
function mapChanges(spec: Record<string, unknown>, changes: readonly ScrapedChange[], items: ReadonlyMap<string, ScrapedItem>, transformer: Transformer): ScrapedChange[] {
  if (!hasChangeRules(spec)) return [...changes];
  const kept: ScrapedChange[] = [];
  for (const original of changes) {
    transformer.checkTime();
    const change = mapChange(spec, original, items.get(keyOf(original.item)), transformer);
    if (change !== null) kept.push(change);
  }
  return kept;
}

/**
 * The entry's change rules for the diff changes the ingest computes, which config-db runs through the same mappings
 * and exclusions as the changes a source reports. The ingest calls it inside its transaction, where no run signal
 * reaches, so each call is bounded by the CEL budget of its expressions alone.
 */
function diffRulesOf(spec: Record<string, unknown>, where: string): DiffChangeRules | undefined {
  if (!hasChangeRules(spec)) return undefined;
  return (change, item) => {
    const transformer = new Transformer(where, new AbortController().signal);
    return { change: mapChange(spec, change, item, transformer), errors: transformer.errors };
  };
}

/** Whether the entry has anything for applyTransform to do. */
export function hasTransform(spec: Record<string, unknown>): boolean {
  const transform = record(spec.transform);
  return list(spec.properties).length > 0 || ['exclude', 'mask', 'relationship', 'changes'].some((field) => transform[field] !== undefined);
}

/**
 * One source entry's result after its transform. Each config is copied before it is changed, so two configs never
 * share what one of them loses. Errors join the result's (the run shows WARNING) without making it incomplete: a
 * transform that could not judge one config loses nothing stored.
 */
export function applyTransform(spec: Record<string, unknown>, result: ScrapeResult, where: string, signal: AbortSignal): ScrapeResult {
  if (!hasTransform(spec)) return result;
  const transform = record(spec.transform);
  const transformer = new Transformer(where, signal);
  const propertySpecs = list(spec.properties);
  const exclusions = list(transform.exclude);
  const masks = list(transform.mask);
  const items = result.items.map((original) => {
    transformer.checkTime();
    const item: ScrapedItem = { ...original, config: structuredClone(original.config) };
    if (propertySpecs.length > 0) item.properties = propertiesOf(propertySpecs, item, transformer);
    exclude(exclusions, item, transformer);
    return item;
  });
  const links = relationships(list(transform.relationship), items, transformer);
  for (const item of items) {
    transformer.checkTime();
    mask(masks, item, transformer);
  }
  const byKey = new Map(items.map((item) => [keyOf(item), item]));
  const changes = mapChanges(record(transform.changes), result.changes, byKey, transformer);
  const diffRules = diffRulesOf(record(transform.changes), where);
  if (diffRules !== undefined) for (const item of items) item.diffRules = diffRules;
  return {
    items,
    relationships: [...result.relationships, ...links],
    changes,
    errors: [...result.errors, ...transformer.errors],
    complete: result.complete,
  };
}
