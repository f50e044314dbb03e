import { parseAllDocuments } from 'yaml';
import type { ItemHealth, ScrapedChange, ScrapedItem, ScrapeError, ScrapeResult } from '../types';
import { normalizeJsonPath } from '../transform/json-path-edit';
import { evaluateScraperJsonPath } from '../transform/json-path-grammar';
import { scriptOutput } from '../transform/script';
import { fullModeChange, fullModeParts, unrunChangeFields } from './full-mode';
import { isRecord } from '../../../platform/json-values';

/** How the file, http and sql sources describe where a document came from. */
export interface DocumentOrigin {
  /** Names the source entry and the document in error entries, e.g. `file[0] /srv/a.yaml`. */
  where: string;
  /** ScrapedItem.source of every item of the document. */
  source: string;
  /** The document's own format (json or yaml), used unless the spec names one. */
  format: string;
}

/** `Class::Subtype`, `AWS::EC2::Instance`, or a bare type (config-db's class then defaults to the type itself). */
const TYPE_PATTERN = /^[A-Za-z0-9][\w.-]*(?:::[A-Za-z0-9][\w.-]*)*$/;
const HEALTH_VALUES = new Set<ItemHealth>(['healthy', 'unhealthy', 'warning', 'unknown']);

export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractError';
  }
}

/** config-db's rule: a field value starting with `$` or `@` is a JSONPath, anything else a fixed value. */
export function isJsonPath(value: string): boolean {
  return value.startsWith('$') || value.startsWith('@');
}

/** Every match of a JSONPath; filters are judged by json-path-filter.ts and scripts refused: a spec never runs code here. */
export function queryJsonPath(path: string, document: unknown): unknown[] {
  let found: unknown;
  try {
    found = evaluateScraperJsonPath(normalizeJsonPath(path), document as object, 'value');
  } catch (error) {
    throw new ExtractError(`JSONPath '${path}' cannot be evaluated: ${error instanceof Error ? error.message : String(error)}`);
  }
  return Array.isArray(found) ? (found as unknown[]) : [];
}

/** `$.a.b` style paths, which most specs use for id, type and name. */
const PLAIN_PATH = /^\$((?:\.[A-Za-z_][\w-]*)+)$/;

/**
 * A plain dotted path is walked directly: a 100,000-item scrape evaluates several paths per item, and the general
 * evaluator parses the path on each call. The answer is the same as its first match.
 */
function walkPlainPath(segments: readonly string[], item: unknown): unknown {
  let current = item;
  for (const segment of segments) {
    if (!isRecord(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

const plainPaths = new Map<string, readonly string[] | null>();

function plainSegments(expression: string): readonly string[] | null {
  let segments = plainPaths.get(expression);
  if (segments === undefined) {
    const match = PLAIN_PATH.exec(expression);
    segments = match?.[1] === undefined ? null : match[1].slice(1).split('.');
    if (plainPaths.size < 1000) plainPaths.set(expression, segments);
  }
  return segments;
}

/** A field's value for one item: the first JSONPath match when it starts with `$`, the text itself otherwise. */
export function fieldValue(expression: unknown, item: unknown): unknown {
  if (typeof expression !== 'string') return expression;
  if (!isJsonPath(expression)) return expression;
  const segments = plainSegments(expression);
  return segments === null ? queryJsonPath(expression, item)[0] : walkPlainPath(segments, item);
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return null;
}

/**
 * `labels` and `tags` as a map (`{team: $.owner}`) or as Mission Control's list (`[{name, value}]` or
 * `[{name, jsonpath}]`); entries that find nothing are left out rather than stored empty.
 */
function namedValues(spec: unknown, item: unknown, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (spec === undefined || spec === null) return out;
  if (Array.isArray(spec)) {
    for (const entry of spec) {
      if (!isRecord(entry) || typeof entry.name !== 'string') throw new ExtractError(`${field} entries need a name`);
      const value = typeof entry.jsonpath === 'string' ? text(queryJsonPath(entry.jsonpath, item)[0]) : text(fieldValue(entry.value, item));
      if (value !== null) out[entry.name] = value;
    }
    return out;
  }
  if (!isRecord(spec)) throw new ExtractError(`${field} must be a map or a list of {name, value}`);
  for (const [name, expression] of Object.entries(spec)) {
    const value = text(fieldValue(expression, item));
    if (value !== null) out[name] = value;
  }
  return out;
}

function healthOf(value: unknown): ItemHealth | null {
  const raw = text(value)?.toLowerCase();
  if (raw === undefined) return null;
  return HEALTH_VALUES.has(raw as ItemHealth) ? (raw as ItemHealth) : 'unknown';
}

function dateOf(value: unknown): string | null {
  const raw = value instanceof Date ? value.toISOString() : text(value);
  if (raw === null) return null;
  const parsed = new Date(raw);
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

function firstDate(expressions: unknown, item: unknown): string | null {
  if (!Array.isArray(expressions)) return null;
  for (const expression of expressions) {
    const found = dateOf(fieldValue(expression, item));
    if (found !== null) return found;
  }
  return null;
}

/**
 * `type`, or `class` + `type` when the spec gives the class apart (Mission Control writes `class: File`). A bare type
 * with no other class stays bare: its class is the type itself, as config-db defaults it.
 */
function typeOf(spec: Record<string, unknown>, item: unknown): string {
  const type = text(fieldValue(spec.type, item));
  if (type === null) throw new ExtractError('no type: set type to a Class::Subtype or a JSONPath that finds one');
  const className = text(fieldValue(spec.class, item));
  const full = type.includes('::') || className === null || className === type ? type : `${className}::${type}`;
  if (!TYPE_PATTERN.test(full)) throw new ExtractError(`type '${full}' is not a type: letters, digits, '.', '_' or '-', in parts joined by '::'`);
  return full;
}

/**
 * The pieces `items` cuts a document into (written with or without the leading `$`, as config-db reads it); a path
 * that finds one list means its elements.
 */
export function splitDocument(spec: Record<string, unknown>, document: unknown): unknown[] {
  if (typeof spec.items !== 'string' || spec.items === '') return [document];
  const found = queryJsonPath(spec.items, document);
  const [only] = found;
  return found.length === 1 && Array.isArray(only) ? only : found;
}

/** One item from one piece of a document; throws an ExtractError that says what is missing. */
export function toItem(spec: Record<string, unknown>, item: unknown, origin: DocumentOrigin): ScrapedItem | null {
  const externalId = text(fieldValue(spec.id, item));
  if (externalId === null) throw new ExtractError('no id: the id JSONPath finds nothing in this item');
  // An item whose deleteFields name a time is gone in its own system: left out, the ingest soft-deletes it.
  if (firstDate(spec.deleteFields, item) !== null) return null;
  const name = text(fieldValue(spec.name, item)) ?? externalId;
  const format = typeof spec.format === 'string' && spec.format !== '' ? spec.format : origin.format;
  const scraped: ScrapedItem = {
    type: typeOf(spec, item),
    externalId,
    name,
    tags: namedValues(spec.tags, item, 'tags'),
    labels: namedValues(spec.labels, item, 'labels'),
    config: item,
    format,
    source: origin.source,
  };
  // A tag read from a label (`{name, label}`) takes the label's value, as config-db does.
  for (const entry of Array.isArray(spec.tags) ? spec.tags : []) {
    if (!isRecord(entry) || typeof entry.name !== 'string' || typeof entry.label !== 'string') continue;
    const value = scraped.labels[entry.label];
    if (value !== undefined && value !== '') scraped.tags[entry.name] = value;
  }
  if (spec.health !== undefined) scraped.health = healthOf(fieldValue(spec.health, item));
  if (spec.status !== undefined) scraped.status = text(fieldValue(spec.status, item));
  if (spec.description !== undefined) scraped.description = text(fieldValue(spec.description, item));
  const createdAt = firstDate(spec.createFields, item);
  if (createdAt !== null) scraped.createdAt = createdAt;
  return scraped;
}

/**
 * Gathers one source entry's items and errors. Any error makes the result incomplete, so an item that could not be
 * read this time is never taken for one that disappeared.
 */
export class ItemCollector {
  private readonly items = new Map<string, ScrapedItem>();
  private readonly changes: ScrapedChange[] = [];
  private readonly errors: ScrapeError[] = [];
  private readonly now = new Date().toISOString();
  /** A part full mode does not run is reported once per source, not once per piece that holds it. */
  private readonly reportedNotRun = new Set<string>();

  /** `full` is the spec's full mode (full-mode.ts): each piece may carry its config and changes. */
  constructor(
    private readonly spec: Record<string, unknown>,
    private readonly full = false,
  ) {}

  error(where: string, message: string): void {
    this.errors.push({ where, message });
  }

  /**
   * Splits a parsed document by `items`, runs the transform script on each piece (config-db's order), and adds what
   * comes out as items, or an error entry naming the piece.
   */
  addDocument(document: unknown, origin: DocumentOrigin): void {
    let pieces: unknown[];
    try {
      pieces = splitDocument(this.spec, document).flatMap((piece) => scriptOutput(this.spec, piece));
    } catch (error) {
      this.error(origin.where, messageOf(error));
      return;
    }
    pieces.forEach((piece, index) => {
      const where = pieces.length === 1 ? origin.where : `${origin.where} item[${index}]`;
      this.addPiece(piece, { ...origin, where });
    });
  }

  addPiece(piece: unknown, origin: DocumentOrigin): void {
    if (this.full) {
      this.addFullPiece(piece, origin);
      return;
    }
    this.addItem(piece, origin);
  }

  /** Full mode reads id, name and type from the whole piece, as config-db does, and stores its `config` part. */
  private addFullPiece(piece: unknown, origin: DocumentOrigin): void {
    let parts: ReturnType<typeof fullModeParts>;
    try {
      parts = fullModeParts(piece);
    } catch (error) {
      this.error(origin.where, messageOf(error));
      return;
    }
    for (const message of [...parts.notRun, ...parts.changes.flatMap(unrunChangeFields)]) {
      if (this.reportedNotRun.has(message)) continue;
      this.reportedNotRun.add(message);
      this.error(origin.where, message);
    }
    if (parts.accessOnly) return;
    const item = this.addItem(piece, origin, parts.config);
    if (item === null) return;
    parts.changes.forEach((raw, index) => {
      try {
        this.changes.push(fullModeChange(raw, item, origin.source, this.now));
      } catch (error) {
        this.error(`${origin.where} changes[${index}]`, messageOf(error));
      }
    });
  }

  private addItem(piece: unknown, origin: DocumentOrigin, config?: unknown): ScrapedItem | null {
    let item: ScrapedItem | null;
    try {
      item = toItem(this.spec, piece, origin);
    } catch (error) {
      this.error(origin.where, messageOf(error));
      return null;
    }
    if (item === null) return null;
    if (config !== undefined) item.config = config;
    const key = `${item.type}\u0000${item.externalId}`;
    if (this.items.has(key)) {
      this.error(origin.where, `duplicate item ${item.type} '${item.externalId}': the first one found is kept`);
      return null;
    }
    this.items.set(key, item);
    return item;
  }

  result(): ScrapeResult {
    return { items: [...this.items.values()], relationships: [], changes: this.changes, errors: this.errors, complete: this.errors.length === 0 };
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/**
 * The documents of a JSON or YAML text: one for JSON, one per `---` section for YAML (empty sections skipped).
 * Throws on the first syntax error, naming its line.
 */
export function parseDocuments(content: string, format: 'json' | 'yaml'): unknown[] {
  if (format === 'json') {
    try {
      return [JSON.parse(content) as unknown];
    } catch (error) {
      throw new ExtractError(`not valid JSON: ${messageOf(error)}`);
    }
  }
  const documents: unknown[] = [];
  for (const document of parseAllDocuments(content)) {
    const [problem] = document.errors;
    if (problem !== undefined) throw new ExtractError(`not valid YAML: ${problem.message}`);
    const value: unknown = document.toJS();
    if (value !== null && value !== undefined) documents.push(value);
  }
  return documents;
}

/** A value without what follows a tab or a `#` outside single quotes, as config-db trims a properties value. */
function withoutComment(value: string): string {
  let kept = value.split('\t')[0] ?? '';
  let quoted = false;
  for (let i = 0; i < kept.length; i += 1) {
    if (kept[i] === "'") quoted = !quoted;
    else if (kept[i] === '#' && !quoted) {
      kept = kept.slice(0, i);
      break;
    }
  }
  return kept.trim();
}

/**
 * A properties text (`key = value`, `key: value` or `key value`; `#` and `!` comment lines; a trailing `\` joins the
 * next line) as one map, read as config-db reads `format: properties`.
 */
export function parseProperties(content: string): Record<string, string> {
  const map: Record<string, string> = {};
  const lines = content.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    let line = (lines[i] ?? '').trim();
    while (line.endsWith('\\') && i + 1 < lines.length) {
      i += 1;
      line = `${line.slice(0, -1)}${(lines[i] ?? '').trim()}`;
    }
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const match = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    const key = match?.[1] ?? line;
    map[key] = withoutComment(match?.[2] ?? '');
  }
  return map;
}
