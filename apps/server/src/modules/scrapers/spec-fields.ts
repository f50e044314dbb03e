import { goTemplateProblem } from '../../platform/go-template/render';
import {
  CHECKOUT_BRANCH_MESSAGE,
  checkoutUrlProblem,
  isCheckoutBranch,
  isScraperKind,
  MAX_CHECKOUT_DEPTH,
  MAX_PAGES,
  parseDurationMs,
  SCRAPE_SPEC_FIELDS,
  SCRAPER_CHANGE_FIELDS,
  SCRAPER_CHECKOUT_FIELDS,
  SCRAPER_EXEC_CONNECTION_FIELDS,
  SCRAPER_EXEC_CONNECTION_KINDS,
  SCRAPER_CHANGE_MAPPING_FIELDS,
  SCRAPER_EXCLUDE_FIELDS,
  SCRAPER_MASK_FIELDS,
  SCRAPER_PAGINATION_FIELDS,
  SCRAPER_PROPERTY_FIELDS,
  SCRAPER_RELATIONSHIP_FIELDS,
  scraperSourceFields,
  scraperTransformFields,
  type RunnableScraperKind,
  type ScraperFieldTable,
} from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { scraperErrors } from './scraper-errors';
import { normalizeJsonPath } from './transform/json-path-edit';
import { templateProblem } from './transform/property-template';
import { celProblem, type CelKind } from './transform/scrape-cel';

/**
 * The strict half of the save rules (ADR 0072): every key of a spec and of each source entry is looked up in the
 * classification tables of packages/shared/src/scrape-config.ts. A key in no table, or one this server does not run,
 * is a coded 400 naming it (`spec.file[0].transform.javascript`) with the alternative as its hint; nothing is saved
 * and then ignored. Expressions are compiled and templates parsed here, so a run never meets one it cannot evaluate.
 */

const TAG_FIELDS: ScraperFieldTable = {
  name: { support: 'runs', note: 'The tag name' },
  value: { support: 'runs', note: 'A fixed value or a JSONPath' },
  jsonpath: { support: 'runs', note: 'A JSONPath' },
  label: { support: 'runs', note: 'The label whose value the tag takes' },
};

const LINK_FIELDS: ScraperFieldTable = Object.fromEntries(
  ['text', 'url', 'icon', 'tooltip', 'type', 'label'].map((field) => [field, { support: 'runs', note: 'Shown on the link; text and url are templates' }]),
);

const LOOKUP_FIELDS: ScraperFieldTable = {
  value: { support: 'runs', note: 'A fixed value' },
  label: { support: 'runs', note: 'A label of the config' },
  expr: { support: 'runs', note: 'CEL over the config' },
};

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'warning', 'blocker'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(field: string, problem: string): never {
  throw errors.invalidScraperSpec(field, problem);
}

/** Each key of the object is one the table knows and runs (or holds its inert value); returns the object. */
function checkKeys(value: unknown, field: string, table: ScraperFieldTable, what: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(field, 'must be an object');
  for (const [key, entry] of Object.entries(value)) {
    const at = `${field}.${key}`;
    const rule = table[key];
    if (rule === undefined) {
      throw scraperErrors.field(at, `is not a field of ${what}`, `Remove it, or use one of: ${Object.keys(table).join(', ')}`);
    }
    if (rule.support === 'refused') {
      if (rule.inertWhen !== undefined && entry === rule.inertWhen) continue;
      throw scraperErrors.field(at, 'is not run by this server', rule.note);
    }
    if (rule.values !== undefined && entry !== undefined && !(typeof entry === 'string' && rule.values.includes(entry.trim().toLowerCase()))) {
      throw scraperErrors.field(at, `'${String(entry)}' is not run by this server`, `${rule.note}; one of ${rule.values.join(', ')}`);
    }
  }
  return value;
}

function listOf(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(field, 'must be a list');
  return value;
}

function checkCel(value: unknown, field: string, kind: CelKind, bool: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'string') invalid(field, 'must be a CEL expression');
  const problem = celProblem(kind, value, bool);
  if (problem !== null) invalid(field, `is not a CEL expression this server can evaluate: ${problem}`);
}

function checkTemplate(value: unknown, field: string): void {
  if (typeof value !== 'string') return;
  const problem = templateProblem(value);
  if (problem !== null) invalid(field, problem);
}

function checkTransformPath(value: unknown, field: string, jsonPathProblem: (text: string) => string | null): void {
  if (typeof value !== 'string' || value.trim() === '') invalid(field, 'is required: a JSONPath such as $.password or .password');
  const problem = jsonPathProblem(normalizeJsonPath(value));
  if (problem !== null) invalid(field, `is not a JSONPath that can be used: '${value}' ${problem}`);
}

function checkLookup(value: unknown, field: string): void {
  if (value === undefined || typeof value === 'string') return;
  const lookup = checkKeys(value, field, LOOKUP_FIELDS, 'a relationship lookup');
  checkCel(lookup.expr, `${field}.expr`, 'item', false);
}

function checkRelationship(value: unknown, field: string): void {
  const rule = checkKeys(value, field, SCRAPER_RELATIONSHIP_FIELDS, 'a relationship');
  checkCel(rule.filter, `${field}.filter`, 'item', true);
  checkCel(rule.expr, `${field}.expr`, 'item', false);
  for (const name of ['id', 'external_id', 'name', 'type', 'namespace']) checkLookup(rule[name], `${field}.${name}`);
  if (rule.labels !== undefined) {
    if (!isRecord(rule.labels)) invalid(`${field}.labels`, 'must be a map of label to a value, label or expr');
    for (const [label, lookup] of Object.entries(rule.labels)) checkLookup(lookup, `${field}.labels.${label}`);
  }
}

function checkChanges(value: unknown, field: string): void {
  const changes = checkKeys(value, field, SCRAPER_CHANGE_FIELDS, 'transform.changes');
  listOf(changes.mapping, `${field}.mapping`).forEach((entry, index) => {
    const at = `${field}.mapping[${index}]`;
    const mapping = checkKeys(entry, at, SCRAPER_CHANGE_MAPPING_FIELDS, 'a change mapping');
    checkCel(mapping.filter, `${at}.filter`, 'change', true);
    if (mapping.severity !== undefined && !(typeof mapping.severity === 'string' && SEVERITIES.includes(mapping.severity))) {
      invalid(`${at}.severity`, `must be one of ${SEVERITIES.join(', ')}`);
    }
    if (mapping.summary !== undefined) {
      const problem = typeof mapping.summary === 'string' ? goTemplateProblem(mapping.summary) : 'must be text';
      if (problem !== null) invalid(`${at}.summary`, `is not a Go template this server can run: ${problem}`);
    }
  });
  listOf(changes.exclude, `${field}.exclude`).forEach((entry, index) => checkCel(entry, `${field}.exclude[${index}]`, 'change', true));
}

function checkTransform(kind: RunnableScraperKind, value: unknown, field: string, jsonPathProblem: (text: string) => string | null): void {
  const transform = checkKeys(value, field, scraperTransformFields(kind), 'a transform');
  checkCel(transform.expr, `${field}.expr`, 'script', false);
  if (transform.javascript !== undefined) {
    if (transform.expr !== undefined || transform.gotemplate !== undefined) invalid(`${field}.javascript`, 'cannot be given beside transform.expr or gotemplate: write the script one way');
    if (typeof transform.javascript !== 'string') invalid(`${field}.javascript`, 'must be text');
  }
  if (transform.gotemplate !== undefined) {
    if (transform.expr !== undefined) invalid(`${field}.gotemplate`, 'cannot be given beside transform.expr: write the script one way');
    const problem = typeof transform.gotemplate === 'string' ? goTemplateProblem(transform.gotemplate) : 'must be text';
    if (problem !== null) invalid(`${field}.gotemplate`, `is not a Go template this server can run: ${problem}`);
  }
  listOf(transform.exclude, `${field}.exclude`).forEach((entry, index) => {
    const at = `${field}.exclude[${index}]`;
    const rule = checkKeys(entry, at, SCRAPER_EXCLUDE_FIELDS, 'an exclusion');
    checkTransformPath(rule.jsonpath, `${at}.jsonpath`, jsonPathProblem);
    listOf(rule.types, `${at}.types`).forEach((type, position) => {
      if (typeof type !== 'string') invalid(`${at}.types[${position}]`, 'must be a config type or glob');
    });
  });
  listOf(transform.mask, `${field}.mask`).forEach((entry, index) => {
    const at = `${field}.mask[${index}]`;
    const rule = checkKeys(entry, at, SCRAPER_MASK_FIELDS, 'a mask');
    checkCel(rule.selector, `${at}.selector`, 'item', true);
    checkTransformPath(rule.jsonpath, `${at}.jsonpath`, jsonPathProblem);
    if (rule.value !== undefined && typeof rule.value !== 'string') invalid(`${at}.value`, 'must be md5sum or the text to put in place');
  });
  listOf(transform.relationship, `${field}.relationship`).forEach((entry, index) => checkRelationship(entry, `${field}.relationship[${index}]`));
  if (transform.changes !== undefined) checkChanges(transform.changes, `${field}.changes`);
}

function checkProperties(value: unknown, field: string): void {
  listOf(value, field).forEach((entry, index) => {
    const at = `${field}[${index}]`;
    const property = checkKeys(entry, at, SCRAPER_PROPERTY_FIELDS, 'a property');
    checkCel(property.filter, `${at}.filter`, 'item', true);
    for (const [key, text] of Object.entries(property)) if (key !== 'filter') checkTemplate(text, `${at}.${key}`);
    listOf(property.links, `${at}.links`).forEach((link, position) => {
      const linkAt = `${at}.links[${position}]`;
      for (const [key, text] of Object.entries(checkKeys(link, linkAt, LINK_FIELDS, 'a link'))) checkTemplate(text, `${linkAt}.${key}`);
    });
  });
}

function checkTags(value: unknown, field: string): void {
  if (value === undefined || isRecord(value)) return;
  listOf(value, field).forEach((entry, index) => {
    const tag = checkKeys(entry, `${field}[${index}]`, TAG_FIELDS, 'a tag');
    if (typeof tag.name !== 'string' || tag.name === '') invalid(`${field}[${index}].name`, 'is required');
  });
}

/** The top-level keys of a spec: source lists, and the fields of SCRAPE_SPEC_FIELDS. */
export function checkSpecKeys(spec: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(spec)) {
    if (isScraperKind(key)) continue;
    checkKeys({ [key]: value }, 'spec', SCRAPE_SPEC_FIELDS, 'a ScrapeConfig spec (nor a source kind)');
  }
}

/** One source entry's keys, transform, properties and tags. */
/** exec[].checkout: a repository anyone may clone, named by a URL git reads, and nothing that would hand it a credential. */
function checkCheckout(value: unknown, field: string): void {
  const checkout = checkKeys(value, field, SCRAPER_CHECKOUT_FIELDS, 'exec.checkout');
  const problem = typeof checkout.url === 'string' ? checkoutUrlProblem(checkout.url) : checkoutUrlProblem('');
  if (problem !== null) invalid(`${field}.url`, problem);
  if (checkout.branch !== undefined && (typeof checkout.branch !== 'string' || !isCheckoutBranch(checkout.branch))) invalid(`${field}.branch`, CHECKOUT_BRANCH_MESSAGE);
  if (checkout.depth !== undefined && (typeof checkout.depth !== 'number' || !Number.isInteger(checkout.depth) || checkout.depth < 1 || checkout.depth > MAX_CHECKOUT_DEPTH)) {
    invalid(`${field}.depth`, `must be a whole number from 1 to ${MAX_CHECKOUT_DEPTH}`);
  }
}

/**
 * An http source's `env` and the url template that reads it: a list of {name, value | valueFrom}, and `{{ }}` only
 * after the host (a value in the host would send it, or a secret, in a DNS lookup).
 */
function checkHttpEnvironment(entry: Record<string, unknown>, field: string): void {
  const names = new Set<string>();
  listOf(entry.env, `${field}.env`).forEach((item, index) => {
    const at = `${field}.env[${index}]`;
    if (!isRecord(item) || typeof item.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.name)) invalid(`${at}.name`, 'is required: a name {{.name}} can read (letters, digits and _)');
    if (names.has(item.name)) invalid(`${at}.name`, `'${item.name}' is given twice`);
    names.add(item.name);
    const keys = Object.keys(item).filter((key) => key !== 'name');
    if (keys.length !== 1 || (keys[0] !== 'value' && keys[0] !== 'valueFrom')) invalid(at, 'must hold value or valueFrom (one of them)');
    if (item.value !== undefined && typeof item.value !== 'string') invalid(`${at}.value`, 'must be text');
  });
  if (typeof entry.url !== 'string' || !entry.url.includes('{{')) {
    // config-db reads env only while templating the url: beside a plain url it would be fetched and then ignored.
    if (entry.env !== undefined) invalid(`${field}.env`, 'is read only by a templated url ({{.name}}), and this url has no template');
    return;
  }
  const problem = goTemplateProblem(entry.url);
  if (problem !== null) invalid(`${field}.url`, `is not a Go template this server can run: ${problem}`);
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(entry.url)?.[0] ?? '';
  if (authority.includes('{{') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(entry.url)) invalid(`${field}.url`, 'templates only the path and query: write the scheme and host as they are');
}

/** config-db's http `pagination`: a CEL nextPageExpr (and reduceExpr), perPage, maxPages and a delay of at most a minute. */
function checkPagination(value: unknown, field: string): void {
  const pagination = checkKeys(value, field, SCRAPER_PAGINATION_FIELDS, 'pagination');
  if (typeof pagination.nextPageExpr !== 'string') invalid(`${field}.nextPageExpr`, 'is required: CEL over response that returns the next URL, or "" to stop');
  checkCel(pagination.nextPageExpr, `${field}.nextPageExpr`, 'page', false);
  checkCel(pagination.reduceExpr, `${field}.reduceExpr`, 'reduce', false);
  if (pagination.perPage !== undefined && typeof pagination.perPage !== 'boolean') invalid(`${field}.perPage`, 'must be true or false');
  const { maxPages, delay } = pagination;
  if (maxPages !== undefined && (typeof maxPages !== 'number' || !Number.isInteger(maxPages) || maxPages < 0 || maxPages > MAX_PAGES)) invalid(`${field}.maxPages`, `must be a whole number from 0 to ${MAX_PAGES}`);
  if (delay !== undefined) {
    const ms = typeof delay === 'string' ? parseDurationMs(delay) : null;
    if (ms === null || ms > 60_000) invalid(`${field}.delay`, 'must be a duration of at most 1m, e.g. 500ms');
  }
}

const KUBERNETES_RELATIONSHIP_FIELDS: ScraperFieldTable = {
  kind: { support: 'runs', note: 'The kind of the configs to link' },
  name: { support: 'runs', note: 'Their name' },
  namespace: { support: 'runs', note: 'Their namespace' },
};

const KUBERNETES_LOOKUP_FIELDS: ScraperFieldTable = {
  value: { support: 'runs', note: 'A fixed value' },
  label: { support: 'runs', note: 'A label of the object' },
  expr: { support: 'runs', note: 'CEL over the metadata and spec of the object' },
};

/** kubernetes[].relationships: duty Lookups ({value | label | expr}), the CEL compiled over metadata and spec. */
function checkKubernetesRelationships(value: unknown, field: string): void {
  listOf(value, field).forEach((entry, index) => {
    const at = `${field}[${index}]`;
    const rule = checkKeys(entry, at, KUBERNETES_RELATIONSHIP_FIELDS, 'a kubernetes relationship');
    if (Object.keys(rule).length === 0) invalid(at, 'names no kind, name or namespace, so it would link nothing');
    for (const [name, raw] of Object.entries(rule)) {
      const lookup = checkKeys(raw, `${at}.${name}`, KUBERNETES_LOOKUP_FIELDS, 'a lookup');
      const given = Object.entries(lookup).filter(([, text]) => text !== undefined && text !== '');
      if (given.length !== 1) invalid(`${at}.${name}`, 'must hold one of value, label or expr (config-db reads only the first of them and would drop the others)');
      for (const [key, text] of given) if (typeof text !== 'string') invalid(`${at}.${name}.${key}`, 'must be text');
      checkCel(lookup.expr === '' ? undefined : lookup.expr, `${at}.${name}.expr`, 'object', false);
    }
  });
}

export function checkEntryFields(kind: RunnableScraperKind, entry: Record<string, unknown>, field: string, jsonPathProblem: (text: string) => string | null): void {
  checkKeys(entry, field, scraperSourceFields(kind), `a ${kind} source`);
  if (kind === 'kubernetes' && entry.relationships !== undefined) checkKubernetesRelationships(entry.relationships, `${field}.relationships`);
  if (kind === 'http') checkHttpEnvironment(entry, field);
  if (kind === 'http' && entry.pagination !== undefined) checkPagination(entry.pagination, `${field}.pagination`);
  if (kind === 'exec' && entry.checkout !== undefined) checkCheckout(entry.checkout, `${field}.checkout`);
  if (kind === 'exec' && entry.connections !== undefined) {
    const kinds = checkKeys(entry.connections, `${field}.connections`, SCRAPER_EXEC_CONNECTION_KINDS, 'exec.connections');
    for (const [name, value] of Object.entries(kinds)) {
      const connection = checkKeys(value, `${field}.connections.${name}`, SCRAPER_EXEC_CONNECTION_FIELDS, `exec.connections.${name}`);
      if (typeof connection.connection !== 'string' || connection.connection.trim() === '') invalid(`${field}.connections.${name}.connection`, 'is required: a stored connection (connection://namespace/name)');
    }
  }
  if (entry.transform !== undefined) checkTransform(kind, entry.transform, `${field}.transform`, jsonPathProblem);
  checkProperties(entry.properties, `${field}.properties`);
  checkTags(entry.tags, `${field}.tags`);
}
