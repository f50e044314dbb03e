import { createHash } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import { TOPOLOGY_MAX_COMPONENTS, type ComponentProperty } from '@opsdeck/shared';
import { parseTopologySpec, type ParsedComponent, type ParsedConfigSelector, type ParsedForEach, type ParsedProperty } from './spec';
import type { BuiltTopology, CheckRow, CheckSelector, ComponentDraft, ConfigRow, TopologyRow, TopologySources } from './types';

/** The selector id of the config a looked-up component was made from. */
export const LOOKUP_SELECTOR_ID = 'lookup';

/** `{{.name}}`, `{{ .tags.app }}`…: the only templates forEach strings may use (TOPOLOGY_FOR_EACH_TEMPLATES). */
const TEMPLATE = /\{\{\s*\.(name|id|type|tags\.([^\s{}]+)|labels\.([^\s{}]+))\s*\}\}/g;

function fill(text: string, item: ConfigRow): string {
  return text.replace(TEMPLATE, (_match, what: string, tag: string | undefined, label: string | undefined) => {
    if (tag !== undefined) return item.tags[tag] ?? '';
    if (label !== undefined) return item.labels[label] ?? '';
    return what === 'name' ? item.name : what === 'id' ? item.id : item.type;
  });
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
function selectorId(kind: 'checks' | 'configs', selector: object): string {
  return `${kind}:${createHash('sha256').update(JSON.stringify(selector)).digest('hex').slice(0, 16)}`;
}

function pickDefined<T extends object>(draft: T, fields: Partial<T>): T {
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) Object.assign(draft, { [key]: value });
  }
  return draft;
}

class TreeBuilder {
  readonly errors: string[] = [];
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
      if (spec.configLookup === null) {
        built.push(spec.property);
        continue;
      }
      const { selector, field } = spec.configLookup;
      const source = selector === null ? item : ((await this.configs(selector))[0] ?? null);
      // A lookup matching nothing (a pod gone) is not a build error: the property is left out.
      if (source === null) continue;
      // An item without content has nothing to read: like a missing item, not an error.
      if (typeof source.config !== 'object' || source.config === null) continue;
      let found: unknown;
      try {
        found = JSONPath({ path: field, json: source.config, eval: false, wrap: true });
      } catch (error) {
        this.errors.push(`${owner}: property ${spec.property.name}: ${field} failed on ${source.name}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const first: unknown = Array.isArray(found) ? found[0] : undefined;
      if (first === undefined) continue;
      const { value: _value, text: _text, ...rest } = spec.property;
      built.push(typeof first === 'number' ? { ...rest, value: first } : { ...rest, text: typeof first === 'string' ? first : JSON.stringify(first) });
    }
    return built;
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

function emptyDraft(key: string, name: string): ComponentDraft {
  return { key, name, hidden: false, labels: {}, properties: [], checks: [], configs: [], children: [] };
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
  draft.properties = await builder.properties(name, spec.properties, null);
  await builder.attachChecks(draft, spec.checks);
  await builder.attachConfigs(draft, spec.configs);
  draft.children = await children(builder, spec.components, draft.key);
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
  draft.properties = await builder.properties(item.name, [...(generator ? spec.properties : []), ...(forEach?.properties ?? [])], item);
  await builder.attachChecks(draft, [...(generator ? spec.checks : []), ...(forEach?.checks ?? [])]);
  await builder.attachConfigs(draft, [...(generator ? spec.configs : []), ...(forEach?.configs ?? [])]);
  draft.children = await children(builder, [...(generator ? spec.components : []), ...(forEach?.components ?? [])], draft.key);
  return draft;
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
      if (spec.lookup !== null) draft.children.push(...(await lookedUpComponents(builder, spec, spec.lookup)));
      built.push(draft);
    } else {
      built.push(...(await lookedUpComponents(builder, spec, spec.lookup)));
    }
  }
  return built;
}

/**
 * The tree a topology's spec describes, from the catalog and the checks `sources` finds: the root named after the
 * topology (key `topology:<id>`) with the top-level fields, and `spec.components` under it. Stops at 5,000
 * components and says so in `errors`, as it does for a configLookup JSONPath that fails; throws OD_TOPOLOGY_SPEC when
 * the stored spec breaks the save-time rules.
 */
export async function buildTopology(topology: TopologyRow, sources: TopologySources): Promise<BuiltTopology> {
  const { root: spec } = parseTopologySpec(topology.spec);
  const builder = new TreeBuilder(sources);
  builder.take();
  const root = emptyDraft(builder.uniqueKey(`topology:${topology.id}`), topology.name);
  pickDefined(root, { text: spec.text, type: spec.type, icon: spec.icon ?? topology.icon ?? undefined, owner: spec.owner, description: spec.description });
  root.hidden = spec.hidden;
  root.labels = { ...topology.labels, ...spec.labels };
  root.properties = await builder.properties(topology.name, spec.properties, null);
  await builder.attachChecks(root, spec.checks);
  await builder.attachConfigs(root, spec.configs);
  root.children = await children(builder, spec.components, null);
  return { root, errors: builder.errors };
}
