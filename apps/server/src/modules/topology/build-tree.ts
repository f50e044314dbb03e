import { createHash } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import { TOPOLOGY_MAX_COMPONENTS, type ComponentProperty } from '@opsdeck/shared';
import {
  displayedStatusFields,
  parseTopologySpec,
  type ParsedCatalogCheck,
  type ParsedCheckLookup,
  type ParsedComponent,
  type ParsedConfigSelector,
  type ParsedForEach,
  type ParsedGroupBy,
  type ParsedProperty,
  type ParentLookup,
} from './spec';
import { displayText } from '../health';
import { AppError } from '../../platform/errors';
import { prepareJavaScriptFor } from '../../platform/javascript/sandboxed-javascript';
import type { BuiltTopology, CheckRow, CheckSelector, ComponentDraft, ComponentSelector, ConfigRow, TopologyRow, TopologySources } from './types';

/** The selector id of the config a looked-up component was made from. */
export const LOOKUP_SELECTOR_ID = 'lookup';

/**
 * `{{.name}}`, `{{ .tags.app }}`, and Mission Control's `$(.component.name)` / `{{.component.name}}`: the only
 * templates forEach strings may use (TOPOLOGY_FOR_EACH_TEMPLATES), replaced as plain text.
 */
const FIELD = '\\.(?:component\\.)?(name|id|type|tags\\.([^\\s{}()]+)|labels\\.([^\\s{}()]+))';
const TEMPLATE = new RegExp(`\\{\\{\\s*${FIELD}\\s*\\}\\}|\\$\\(\\s*${FIELD}\\s*\\)`, 'g');

function fill(text: string, item: ConfigRow): string {
  return text.replace(
    TEMPLATE,
    (_match, what: string | undefined, tag: string | undefined, label: string | undefined, dollarWhat: string | undefined, dollarTag: string | undefined, dollarLabel: string | undefined) => {
      const field = what ?? dollarWhat;
      const tagName = tag ?? dollarTag;
      const labelName = label ?? dollarLabel;
      if (tagName !== undefined) return item.tags[tagName] ?? '';
      if (labelName !== undefined) return item.labels[labelName] ?? '';
      return field === 'name' ? item.name : field === 'id' ? item.id : item.type;
    },
  );
}

/**
 * Every string (keys too) of a parsed forEach with the item's values in place. A nested `forEach` keeps its templates:
 * they name the items of its own lookup.
 */
function fillAll(value: unknown, item: ConfigRow): unknown {
  if (typeof value === 'string') return fill(value, item);
  if (Array.isArray(value)) return value.map((entry: unknown) => fillAll(entry, item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [fill(key, item), key === 'forEach' ? entry : fillAll(entry, item)]));
  }
  return value;
}

function forEachFor(forEach: ParsedForEach, item: ConfigRow): ParsedForEach {
  // fillAll rebuilds the same shape with strings replaced, so the type holds.
  return fillAll(forEach, item) as ParsedForEach;
}

/** A short stable id for a selector, so a reordered spec keeps its links. */
function selectorId(kind: 'checks' | 'configs' | 'components', selector: object): string {
  return `${kind}:${createHash('sha256').update(JSON.stringify(selector)).digest('hex').slice(0, 16)}`;
}

/** The component selectors a draft carries; the store resolves them once the tree is written. */
function selectorsOf(selectors: readonly ComponentSelector[]): ComponentDraft['selectors'] {
  return selectors.map((selector) => ({ selector, selectorId: selectorId('components', selector) }));
}

function pickDefined<T extends object>(draft: T, fields: Partial<T>): T {
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) Object.assign(draft, { [key]: value });
  }
  return draft;
}

class TreeBuilder {
  readonly errors: string[] = [];
  /** Components to move once the tree is built, and where. */
  readonly parentLookups = new Map<ComponentDraft, ParentLookup>();
  private count = 0;
  private capped = false;
  private readonly keys = new Set<string>();
  private readonly configCache = new Map<string, Promise<ConfigRow[]>>();
  private readonly checkCache = new Map<string, Promise<CheckRow[]>>();

  constructor(private readonly sources: TopologySources) {}

  get stopped(): boolean {
    return this.capped;
  }

  /** Whether one more component fits under the cap; the first refusal is reported once. */
  take(): boolean {
    if (this.count >= TOPOLOGY_MAX_COMPONENTS) {
      if (!this.capped) this.errors.push(`The spec builds more than ${TOPOLOGY_MAX_COMPONENTS} components: the build stopped at ${TOPOLOGY_MAX_COMPONENTS}`);
      this.capped = true;
      return false;
    }
    this.count += 1;
    return true;
  }

  /**
   * Gives `draft` the key its `id` expression works out over `self` and `properties`, as canary-checker does; an
   * empty answer keeps the key it has. One that fails keeps it too, and the run says so.
   */
  rekeyByExpression(draft: ComponentDraft, expression: Record<string, unknown> | undefined): void {
    if (expression === undefined) return;
    const self = { name: draft.name, type: draft.type, icon: draft.icon, text: draft.text, description: draft.description, owner: draft.owner, lifecycle: draft.lifecycle, namespace: draft.namespace, labels: draft.labels, hidden: draft.hidden };
    const properties = Object.fromEntries(draft.properties.map((property) => [property.name, property.value ?? property.text ?? null]));
    let key: string;
    try {
      key = displayText(expression, { self, properties }).trim();
    } catch (error) {
      this.errors.push(`${draft.name}: id failed, the component keeps the key ${draft.key}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (key === '' || key === 'undefined' || key === 'null') return;
    this.keys.delete(draft.key);
    draft.key = this.uniqueKey(key);
  }

  uniqueKey(base: string): string {
    let key = base;
    for (let n = 2; this.keys.has(key); n += 1) key = `${base}#${n}`;
    this.keys.add(key);
    return key;
  }

  async configs(selector: ParsedConfigSelector): Promise<ConfigRow[]> {
    const { classes, ...query } = selector;
    const cacheKey = JSON.stringify(query);
    let found = this.configCache.get(cacheKey);
    if (found === undefined) {
      found = this.sources.findConfigs(query);
      this.configCache.set(cacheKey, found);
    }
    const rows = await found;
    return classes === undefined ? rows : rows.filter((row) => row.config_class !== null && classes.includes(row.config_class));
  }

  async checks(selector: CheckSelector): Promise<CheckRow[]> {
    const cacheKey = JSON.stringify(selector);
    let found = this.checkCache.get(cacheKey);
    if (found === undefined) {
      found = this.sources.findChecks(selector);
      this.checkCache.set(cacheKey, found);
    }
    return found;
  }

  async attachChecks(draft: ComponentDraft, selectors: CheckSelector[]): Promise<void> {
    for (const selector of selectors) {
      const id = selectorId('checks', selector);
      for (const check of await this.checks(selector)) {
        if (!draft.checks.some((attached) => attached.checkId === check.id)) draft.checks.push({ checkId: check.id, canaryId: check.canary_id, selectorId: id });
      }
    }
  }

  async attachConfigs(draft: ComponentDraft, selectors: ParsedConfigSelector[]): Promise<void> {
    for (const selector of selectors) {
      const id = selectorId('configs', selector);
      for (const config of await this.configs(selector)) {
        if (!draft.configs.some((attached) => attached.configId === config.id)) draft.configs.push({ configId: config.id, selectorId: id });
      }
    }
  }

  async properties(owner: string, specs: ParsedProperty[], item: ConfigRow | null): Promise<ComponentProperty[]> {
    const built: ComponentProperty[] = [];
    for (const spec of specs) {
      // Check lookups are applied once the children exist (applyPropertyLookups): they may fill the children in.
      if (spec.lookup !== null) continue;
      if (spec.configLookup === null) {
        built.push(spec.property);
        continue;
      }
      const { selector, field, display } = spec.configLookup;
      const source = selector === null ? item : ((await this.configs(selector))[0] ?? null);
      // A lookup matching nothing (a pod gone) is not a build error: the property is left out.
      if (source === null) continue;
      // An item without content has nothing to read: like a missing item, not an error.
      if (typeof source.config !== 'object' || source.config === null) continue;
      let found: unknown;
      try {
        if (display !== undefined) {
          // canary-checker's environment for it: the item's fields, its content as config, and its type as config_type.
          const variables = { id: source.id, name: source.name, type: source.type, config_type: source.type, config_class: source.config_class, tags: source.tags, labels: source.labels, config: source.config };
          const { value: _value, text: _text, ...rest } = spec.property;
          built.push({ ...rest, text: displayText(display, variables) });
          continue;
        }
        found = JSONPath({ path: field ?? '$', json: source.config, eval: false, wrap: true });
      } catch (error) {
        this.errors.push(`${owner}: property ${spec.property.name}: ${display === undefined ? field : 'display'} failed on ${source.name}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const first: unknown = Array.isArray(found) ? found[0] : undefined;
      if (first === undefined) continue;
      const { value: _value, text: _text, ...rest } = spec.property;
      built.push(typeof first === 'number' ? { ...rest, value: first } : { ...rest, text: typeof first === 'string' ? first : JSON.stringify(first) });
    }
    return built;
  }

  /** What a check lookup's display returned, parsed as JSON when it is (a bare text is kept as text); a failure throws. */
  async lookupOutput(lookup: ParsedCheckLookup): Promise<unknown> {
    if (this.sources.runLookup === undefined) throw new TopologyLookupError(`${lookup.at}: check lookups cannot run here`);
    const outcome = await this.sources.runLookup(lookup.type, lookup.spec);
    if (!outcome.pass) throw new TopologyLookupError(`${lookup.at}: the ${lookup.type} lookup failed: ${outcome.error}`);
    try {
      return JSON.parse(outcome.output) as unknown;
    } catch {
      return outcome.output;
    }
  }

  /**
   * A property's check lookups, once the component's children are built, as Mission Control reads their output: a
   * value is the property; a list of properties is added to the component; a list of {name, properties} is merged into
   * the component or the children of those names.
   */
  async applyPropertyLookups(draft: ComponentDraft, specs: ParsedProperty[]): Promise<void> {
    for (const spec of specs) {
      for (const lookup of spec.lookup ?? []) {
        const output = await this.lookupOutput(lookup);
        if (!Array.isArray(output)) {
          if (output !== null && typeof output === 'object') throw new TopologyLookupError(`${lookup.at}: display returned an object: return a value, a list of properties or a list of components`);
          const { value: _value, text: _text, ...rest } = spec.property;
          mergeProperty(draft.properties, typeof output === 'number' ? { ...rest, value: output } : { ...rest, text: String(output) });
          continue;
        }
        const entries = output.map((entry, index) => lookupObject(entry, `${lookup.at} display[${index}]`));
        if (entries.length > 0 && entries.every((entry) => Array.isArray(entry.properties))) {
          for (const entry of entries) {
            const targets = [draft, ...draft.children].filter((target) => target.name === entry.name);
            for (const target of targets) for (const property of propertiesOf(entry.properties, lookup.at)) mergeProperty(target.properties, property);
          }
        } else {
          for (const entry of entries) {
            const property = propertyOf(entry);
            if (property !== null) mergeProperty(draft.properties, property);
          }
        }
      }
    }
  }

  /**
   * A catalog lookup's display and test over `results`, the items its selectors find as canary-checker's catalog check
   * gives them: the display's output (parsed as JSON when it is), or null without a display. A display or test that
   * fails, or a test that is not true, throws, as a check lookup that fails does.
   */
  async catalogCheckOutput(check: ParsedCatalogCheck): Promise<unknown> {
    const variables = { results: (await this.lookedUp(check.selectors)).map(catalogResult) };
    const failed = (why: string): TopologyLookupError => new TopologyLookupError(`${check.at}: the catalog lookup failed: ${why}`);
    let output: unknown = null;
    if (check.display !== null) {
      let text: string;
      try {
        text = displayText(check.display, variables);
      } catch (error) {
        throw failed(`display: ${error instanceof Error ? error.message : String(error)}`);
      }
      try {
        output = JSON.parse(text) as unknown;
      } catch {
        output = text;
      }
    }
    if (check.test !== null) {
      let verdict: string;
      try {
        verdict = displayText(check.test, variables).trim();
      } catch (error) {
        throw failed(`test: ${error instanceof Error ? error.message : String(error)}`);
      }
      // The answers a check's test may give (check-expressions.ts): true or false in Go's ParseBool spellings.
      if (!/^(true|false|t|f|1|0)$/i.test(verdict)) throw failed(`test expression did not return a boolean value. got ${verdict}`);
      if (!/^(true|t|1)$/i.test(verdict)) throw failed('test failed');
    }
    return output;
  }

  /** The looked-up items of a component: every item matching any catalog selector, once, in the order found. */
  async lookedUp(selectors: ParsedConfigSelector[]): Promise<ConfigRow[]> {
    const items: ConfigRow[] = [];
    const seen = new Set<string>();
    for (const selector of selectors) {
      for (const row of await this.configs(selector)) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        items.push(row);
      }
    }
    return items;
  }
}

/** A check lookup that failed, or returned what cannot be components: the run fails and the stored tree stays as it was. */
export class TopologyLookupError extends Error {}

/**
 * A catalog item as canary-checker's catalog check puts it in `results` (duty's ConfigItem.AsMap: its JSON, the
 * content parsed as `config`), the fields Go leaves out when empty left out here too.
 */
function catalogResult(row: ConfigRow): Record<string, unknown> {
  const result: Record<string, unknown> = {
    id: row.id,
    agent_id: row.agent_id ?? NIL_UUID,
    config_class: row.config_class ?? '',
    type: row.type,
    status: row.status,
    ready: row.ready ?? false,
    health: row.health,
    name: row.name,
    description: row.description ?? null,
    config: row.config ?? null,
    labels: row.labels,
    tags: row.tags,
    properties: row.properties ?? null,
    created_at: row.created_at ?? null,
    updated_at: row.updated_at ?? null,
  };
  if (row.scraper_id !== undefined && row.scraper_id !== null) result.scraper_id = row.scraper_id;
  if (row.external_id !== undefined && row.external_id.length > 0) result.external_id = row.external_id;
  if (row.source !== undefined && row.source !== null && row.source !== '') result.source = row.source;
  if (row.parent_id !== undefined && row.parent_id !== null) result.parent_id = row.parent_id;
  if (row.path !== undefined && row.path !== '') result.path = row.path;
  return result;
}

/** What duty writes for an item without an agent: its agent_id is a uuid value, not a pointer. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The fields a display may return for a component; canary-checker's others (`lookup`, `components`, `logs`…) would be
 * stored and ignored here, so a component holding one fails the build by name instead.
 */
const DISPLAYED_FIELDS: ReadonlySet<string> = new Set([
  'name', 'id', 'type', 'icon', 'text', 'description', 'owner', 'lifecycle', 'namespace', 'labels', 'properties',
  'selectors', 'statusExpr', 'status', 'status_reason',
]);

function lookupObject(value: unknown, at: string): Record<string, unknown> & { name: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TopologyLookupError(`${at}: is not an object`);
  const name = (value as Record<string, unknown>).name;
  if (typeof name !== 'string' || name === '') throw new TopologyLookupError(`${at}: has no name`);
  const unknown = Object.keys(value).filter((key) => !DISPLAYED_FIELDS.has(key));
  if (unknown.length > 0) {
    throw new TopologyLookupError(`${at}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} a display sets on a component here (${[...DISPLAYED_FIELDS].join(', ')})`);
  }
  return { ...(value as Record<string, unknown>), name };
}

/** The status fields of a displayed component, their refusal as the build's error. */
function displayedStatus(entry: Readonly<Record<string, unknown>>, at: string): ReturnType<typeof displayedStatusFields> {
  try {
    return displayedStatusFields(entry, at);
  } catch (error) {
    if (error instanceof AppError) throw new TopologyLookupError(error.message);
    throw error;
  }
}

const PROPERTY_TEXT = ['label', 'type', 'text', 'unit', 'icon', 'color', 'tooltip'] as const;
const PROPERTY_NUMBERS = ['value', 'min', 'max', 'order'] as const;

/** The fields of a property a display returned, as the spec would write them; anything else it held is left out. */
function propertyOf(entry: Record<string, unknown>): ComponentProperty | null {
  if (typeof entry.name !== 'string' || entry.name === '') return null;
  const property: ComponentProperty = { name: entry.name };
  for (const key of PROPERTY_TEXT) if (typeof entry[key] === 'string') property[key] = entry[key];
  for (const key of PROPERTY_NUMBERS) if (typeof entry[key] === 'number') property[key] = entry[key];
  for (const key of ['headline', 'hidden'] as const) if (typeof entry[key] === 'boolean') property[key] = entry[key];
  return property;
}

function propertiesOf(value: unknown, at: string): ComponentProperty[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new TopologyLookupError(`${at}: properties is not a list`);
  return value.flatMap((entry) => {
    const property = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? propertyOf(entry as Record<string, unknown>) : null;
    return property === null ? [] : [property];
  });
}

/** Adds a property, or fills in the one of the same name (a placeholder the spec or an earlier lookup made). */
function mergeProperty(properties: ComponentProperty[], property: ComponentProperty): void {
  const existing = properties.find((entry) => entry.name === property.name);
  if (existing === undefined) properties.push(property);
  else Object.assign(existing, property);
}

function textField(entry: Record<string, unknown>, key: string): string | undefined {
  const value = entry[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function emptyDraft(key: string, name: string): ComponentDraft {
  return { key, name, hidden: false, labels: {}, properties: [], checks: [], configs: [], selectors: [], children: [] };
}

/** The key a child's name is joined to: none under the root, whose own key is the topology's. */
type KeyPrefix = string | null;

function childKey(prefix: KeyPrefix, name: string): string {
  return prefix === null ? name : `${prefix}/${name}`;
}

async function staticComponent(builder: TreeBuilder, spec: ParsedComponent, name: string, prefix: KeyPrefix): Promise<ComponentDraft | null> {
  if (!builder.take()) return null;
  const draft = emptyDraft(builder.uniqueKey(spec.key ?? childKey(prefix, name)), name);
  pickDefined(draft, {
    text: spec.text,
    type: spec.type,
    icon: spec.icon,
    description: spec.description,
    owner: spec.owner,
    lifecycle: spec.lifecycle,
    namespace: spec.namespace,
  });
  draft.hidden = spec.hidden;
  draft.labels = { ...spec.labels };
  if (spec.parentLookup !== undefined) builder.parentLookups.set(draft, spec.parentLookup);
  draft.properties = await builder.properties(name, spec.properties, null);
  if (spec.key === undefined) builder.rekeyByExpression(draft, spec.keyExpression);
  await builder.attachChecks(draft, spec.checks);
  await builder.attachConfigs(draft, spec.configs);
  draft.selectors = selectorsOf(spec.selectors);
  if (spec.statusExpr !== undefined) draft.statusExpr = spec.statusExpr;
  draft.children = await children(builder, spec.components, draft.key);
  // With a lookup, the caller applies them once the looked-up children are there too.
  if (spec.lookup === null) await builder.applyPropertyLookups(draft, spec.properties);
  return draft;
}

/**
 * One component made from a catalog item. A nameless lookup component stands for each of its items, so its own
 * fields apply to each; a named one is their grouping parent and lends them only its icon, labels and hidden flag.
 */
async function lookedUpComponent(builder: TreeBuilder, spec: ParsedComponent, item: ConfigRow): Promise<ComponentDraft | null> {
  if (!builder.take()) return null;
  const forEach = spec.forEach === null ? null : forEachFor(spec.forEach, item);
  const generator = spec.name === undefined;
  const draft = emptyDraft(builder.uniqueKey(`config:${item.id}`), item.name);
  draft.type = forEach?.type ?? item.type;
  draft.icon = forEach?.icon ?? spec.icon ?? item.type;
  if (generator) pickDefined(draft, { text: spec.text, description: spec.description, owner: spec.owner, lifecycle: spec.lifecycle, namespace: spec.namespace });
  draft.hidden = spec.hidden;
  draft.labels = { ...item.tags, ...spec.labels, ...forEach?.labels };
  draft.configs.push({ configId: item.id, selectorId: LOOKUP_SELECTOR_ID });
  const properties = [...(generator ? spec.properties : []), ...(forEach?.properties ?? [])];
  draft.properties = await builder.properties(item.name, properties, item);
  if (generator) builder.rekeyByExpression(draft, spec.keyExpression);
  await builder.attachChecks(draft, [...(generator ? spec.checks : []), ...(forEach?.checks ?? [])]);
  await builder.attachConfigs(draft, [...(generator ? spec.configs : []), ...(forEach?.configs ?? [])]);
  draft.selectors = selectorsOf([...(generator ? spec.selectors : []), ...(forEach?.selectors ?? [])]);
  if (generator && spec.statusExpr !== undefined) draft.statusExpr = spec.statusExpr;
  draft.children = await children(builder, [...(generator ? spec.components : []), ...(forEach?.components ?? [])], draft.key);
  await builder.applyPropertyLookups(draft, properties);
  return draft;
}

/**
 * One component a check lookup's (or a catalog lookup's) display returned: its own fields first, then the spec's as for a catalog item (a
 * nameless lookup component lends each its fields; forEach applies to each, its templates reading the component).
 */
async function checkLookedUpComponent(builder: TreeBuilder, spec: ParsedComponent, entry: Record<string, unknown> & { name: string }, prefix: KeyPrefix, at: string): Promise<ComponentDraft | null> {
  if (!builder.take()) return null;
  const labels = entry.labels !== null && typeof entry.labels === 'object' && !Array.isArray(entry.labels)
    ? Object.fromEntries(Object.entries(entry.labels).filter((pair): pair is [string, string] => typeof pair[1] === 'string'))
    : {};
  const type = textField(entry, 'type');
  const item: ConfigRow = { id: textField(entry, 'id') ?? '', name: entry.name, type: type ?? '', config_class: null, health: null, status: null, tags: {}, labels, config: entry };
  const forEach = spec.forEach === null ? null : forEachFor(spec.forEach, item);
  const generator = spec.name === undefined;
  const draft = emptyDraft(builder.uniqueKey(childKey(prefix, entry.name)), entry.name);
  pickDefined(draft, {
    type: forEach?.type ?? type ?? (generator ? spec.type : undefined),
    icon: forEach?.icon ?? textField(entry, 'icon') ?? spec.icon,
    text: textField(entry, 'text') ?? (generator ? spec.text : undefined),
    description: textField(entry, 'description') ?? (generator ? spec.description : undefined),
    owner: textField(entry, 'owner') ?? (generator ? spec.owner : undefined),
    lifecycle: textField(entry, 'lifecycle') ?? (generator ? spec.lifecycle : undefined),
    namespace: textField(entry, 'namespace') ?? (generator ? spec.namespace : undefined),
  });
  draft.hidden = spec.hidden;
  draft.labels = { ...labels, ...spec.labels, ...forEach?.labels };
  const properties = [...(generator ? spec.properties : []), ...(forEach?.properties ?? [])];
  draft.properties = propertiesOf(entry.properties, at);
  for (const property of await builder.properties(entry.name, properties, null)) mergeProperty(draft.properties, property);
  if (generator) builder.rekeyByExpression(draft, spec.keyExpression);
  await builder.attachChecks(draft, [...(generator ? spec.checks : []), ...(forEach?.checks ?? [])]);
  await builder.attachConfigs(draft, [...(generator ? spec.configs : []), ...(forEach?.configs ?? [])]);
  const shown = displayedStatus(entry, at);
  draft.selectors = selectorsOf([...(generator ? spec.selectors : []), ...(forEach?.selectors ?? []), ...shown.selectors]);
  const statusExpr = shown.statusExpr ?? (generator ? spec.statusExpr : undefined);
  if (statusExpr !== undefined) draft.statusExpr = statusExpr;
  if (shown.statusReason !== undefined) draft.statusReason = shown.statusReason;
  draft.children = await children(builder, [...(generator ? spec.components : []), ...(forEach?.components ?? [])], draft.key);
  await builder.applyPropertyLookups(draft, properties);
  return draft;
}

/** Adds the components a display returned to `built`; false once the component cap stops the build. */
async function addDisplayed(builder: TreeBuilder, spec: ParsedComponent, output: unknown, lookupAt: string, prefix: KeyPrefix, built: ComponentDraft[]): Promise<boolean> {
  if (!Array.isArray(output)) throw new TopologyLookupError(`${lookupAt}: display must return a list of components as JSON`);
  for (const [index, raw] of output.entries()) {
    const at = `${lookupAt} display[${index}]`;
    const draft = await checkLookedUpComponent(builder, spec, lookupObject(raw, at), prefix, at);
    if (draft === null) return false;
    built.push(draft);
  }
  return true;
}

/**
 * The components the displays of a component's catalog lookups and check lookups return, in the order the lookups and
 * their output give them; a catalog lookup with a test alone makes none, it only has to pass.
 */
async function checkLookedUpComponents(builder: TreeBuilder, spec: ParsedComponent, prefix: KeyPrefix): Promise<ComponentDraft[]> {
  const built: ComponentDraft[] = [];
  for (const check of spec.catalogChecks) {
    const output = await builder.catalogCheckOutput(check);
    if (check.display !== null && !(await addDisplayed(builder, spec, output, check.at, prefix, built))) return built;
  }
  for (const lookup of spec.lookupChecks) {
    if (!(await addDisplayed(builder, spec, await builder.lookupOutput(lookup), lookup.at, prefix, built))) return built;
  }
  return built;
}

async function lookedUpComponents(builder: TreeBuilder, spec: ParsedComponent, lookup: ParsedConfigSelector[]): Promise<ComponentDraft[]> {
  const built: ComponentDraft[] = [];
  for (const item of await builder.lookedUp(lookup)) {
    const draft = await lookedUpComponent(builder, spec, item);
    if (draft === null) break;
    built.push(draft);
  }
  return built;
}

async function children(builder: TreeBuilder, specs: ParsedComponent[], parentKey: KeyPrefix): Promise<ComponentDraft[]> {
  const built: ComponentDraft[] = [];
  for (const spec of specs) {
    if (builder.stopped) break;
    if (spec.lookup === null || spec.name !== undefined) {
      const draft = await staticComponent(builder, spec, spec.name ?? '', parentKey);
      if (draft === null) break;
      if (spec.lookup !== null) {
        draft.children.push(...(await lookedUpComponents(builder, spec, spec.lookup)), ...(await checkLookedUpComponents(builder, spec, draft.key)));
        // A property lookup of a grouping parent may fill in the components its lookups made.
        await builder.applyPropertyLookups(draft, spec.properties);
      }
      built.push(draft);
    } else {
      built.push(...(await lookedUpComponents(builder, spec, spec.lookup)), ...(await checkLookedUpComponents(builder, spec, parentKey)));
    }
  }
  return built;
}

function parentKey(name: string, type: string | undefined, namespace: string | undefined): string {
  return JSON.stringify([name, type ?? '', namespace ?? '']);
}

function holds(draft: ComponentDraft, target: ComponentDraft): boolean {
  return draft === target || draft.children.some((child) => holds(child, target));
}

/**
 * canary-checker's parentLookup: once the tree is built, each component that names a parent (by name, type and
 * namespace, or by its key) moves under it. One whose parent is not in the tree, or lies inside itself, stays where it
 * was written, and the run says so.
 */
function moveToParents(root: ComponentDraft, lookups: ReadonlyMap<ComponentDraft, ParentLookup>, errors: string[]): void {
  if (lookups.size === 0) return;
  const byName = new Map<string, ComponentDraft>();
  const byKey = new Map<string, ComponentDraft>();
  const moves: Array<{ parent: ComponentDraft; child: ComponentDraft; lookup: ParentLookup }> = [];
  const visit = (draft: ComponentDraft): void => {
    byName.set(parentKey(draft.name, draft.type, draft.namespace), draft);
    byKey.set(draft.key, draft);
    for (const child of draft.children) {
      const lookup = lookups.get(child);
      if (lookup !== undefined) moves.push({ parent: draft, child, lookup });
      visit(child);
    }
  };
  visit(root);
  for (const { parent, child, lookup } of moves) {
    const target = lookup.externalID !== undefined ? byKey.get(lookup.externalID) : byName.get(parentKey(lookup.name, lookup.type, lookup.namespace));
    const named = lookup.externalID ?? [lookup.name, lookup.type, lookup.namespace].filter((part) => part !== '').join(' / ');
    if (target === undefined) {
      errors.push(`${child.name}: parentLookup found no component ${named} in this topology; it stays under ${parent.name}`);
      continue;
    }
    if (target === parent) continue;
    if (holds(child, target)) {
      errors.push(`${child.name}: parentLookup names ${named}, which is the component itself or below it; it stays under ${parent.name}`);
      continue;
    }
    parent.children = parent.children.filter((sibling) => sibling !== child);
    target.children.push(child);
  }
}

/** `key=value` pairs with `key` set to `value`, in place of what the selector said of it. */
function withLabel(selector: string | undefined, key: string, value: string): string {
  const kept = (selector ?? '').split(',').filter((part) => {
    const pair = part.trim();
    return pair !== '' && pair !== key && pair.split('=')[0]?.trim() !== key;
  });
  return [...kept, `${key}=${value}`].join(',');
}

function narrowConfigs(selectors: ParsedConfigSelector[], tag: string, value: string): ParsedConfigSelector[] {
  return selectors.map((selector) => ({ ...selector, tags: { ...selector.tags, [tag]: value } }));
}

/**
 * A component and those under it narrowed to one groupBy value, as canary-checker narrows them: its catalog selectors
 * and catalog lookups to items tagged tag=value, its component selectors to components labelled so. forEach and
 * property lookups are left as written, as canary-checker leaves them.
 */
function narrowed(spec: ParsedComponent, tag: string, value: string): ParsedComponent {
  return {
    ...spec,
    configs: narrowConfigs(spec.configs, tag, value),
    selectors: spec.selectors.map((selector) => ({ ...selector, labelSelector: withLabel(selector.labelSelector, tag, value) })),
    lookup: spec.lookup === null ? null : narrowConfigs(spec.lookup, tag, value),
    catalogChecks: spec.catalogChecks.map((check) => ({ ...check, selectors: narrowConfigs(check.selectors, tag, value) })),
    components: spec.components.map((child) => narrowed(child, tag, value)),
  };
}

/** One root and its tree: named after the topology, or with a groupBy value `<topology> (<value>)` and keyed by it. */
async function rootComponent(builder: TreeBuilder, topology: TopologyRow, spec: ParsedComponent, group: string | null): Promise<ComponentDraft> {
  const root = emptyDraft(
    builder.uniqueKey(spec.key ?? (group === null ? `topology:${topology.id}` : `topology:${topology.id}:${group}`)),
    group === null ? topology.name : `${topology.name} (${group})`,
  );
  pickDefined(root, { text: spec.text, type: spec.type, icon: spec.icon ?? topology.icon ?? undefined, owner: spec.owner, description: spec.description });
  root.hidden = spec.hidden;
  root.labels = { ...topology.labels, ...spec.labels };
  root.properties = await builder.properties(root.name, spec.properties, null);
  if (spec.key === undefined) builder.rekeyByExpression(root, spec.keyExpression);
  await builder.attachChecks(root, spec.checks);
  await builder.attachConfigs(root, spec.configs);
  if (spec.statusExpr !== undefined) root.statusExpr = spec.statusExpr;
  // Each group's children are keyed under its root, so the same written component stays apart in every group.
  root.children = await children(builder, spec.components, group === null ? null : root.key);
  moveToParents(root, builder.parentLookups, builder.errors);
  await builder.applyPropertyLookups(root, spec.properties);
  return root;
}

/** The groupBy values to build a tree for; none found builds the one tree without grouping, as canary-checker does. */
async function groupValues(builder: TreeBuilder, sources: TopologySources, groupBy: ParsedGroupBy | null): Promise<Array<string | null>> {
  if (groupBy === null) return [null];
  const { classes, ...selector } = groupBy.selector ?? {};
  const values = await sources.findTagValues(groupBy.tag, groupBy.selector === null ? null : selector, classes ?? null);
  if (values.length > 0) return values;
  builder.errors.push(`groupBy: no live catalog item${groupBy.selector === null ? '' : ' the selector matches'} carries the tag ${groupBy.tag}: built one tree without grouping`);
  return [null];
}

/**
 * The tree a topology's spec describes, from the catalog and the checks `sources` finds: the root named after the
 * topology (key `topology:<id>`) with the top-level fields, and `spec.components` under it; with `groupBy`, one such
 * tree per value of the tag (root `<topology> (<value>)`, key `topology:<id>:<value>`). Stops at 5,000 components and
 * says so in `errors`, as it does for a configLookup JSONPath that fails; throws OD_TOPOLOGY_SPEC when the stored spec
 * breaks the save-time rules.
 */
export async function buildTopology(topology: TopologyRow, sources: TopologySources): Promise<BuiltTopology> {
  const { root: spec, groupBy } = parseTopologySpec(topology.spec);
  await prepareJavaScriptFor(topology.spec);
  const builder = new TreeBuilder(sources);
  const roots: ComponentDraft[] = [];
  for (const group of await groupValues(builder, sources, groupBy)) {
    if (!builder.take()) break;
    roots.push(await rootComponent(builder, topology, group === null || groupBy === null ? spec : narrowed(spec, groupBy.tag, group), group));
  }
  return { roots, errors: builder.errors };
}
