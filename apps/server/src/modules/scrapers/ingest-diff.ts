import { createHash } from 'node:crypto';
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';
// The package is CommonJS without an exports map: Node gives its functions only through the default import.
import fastJsonPatch from 'fast-json-patch';
import { stringify as toYaml } from 'yaml';

/** One RFC 6902 operation; the diff of two contents never moves or copies, so add, remove and replace suffice. */
export type JsonPatchOp =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

export interface ContentDiff {
  /** Unified diff of the two contents rendered in the item's format, old first. */
  diff: string;
  patches: JsonPatchOp[];
  /**
   * The RFC 7396 merge patch that turns the old content into the new one: config-db's `patch` of a diff change, which
   * its change mappings and exclusions read (`has(patch.status.containerStatuses)`).
   */
  mergePatch: unknown;
  /** What changed, named as config-db names it (summaryOf): `spec.replicas, spec.template.spec.containers`. */
  summary: string;
  severity: 'info' | 'medium';
  /** sha256 of the patches: the same change seen again folds into the first row (0080). */
  fingerprint: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value with every object's keys sorted. jsonb stores keys in its own order, so a stored content and the same
 * content freshly scraped would otherwise render, hash and diff differently.
 */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (isPlainObject(value)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (value[key] !== undefined) sorted[key] = canonicalize(value[key]);
    }
    return sorted;
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value ?? null));
}

interface Change {
  segments: Array<string | number>;
  op: JsonPatchOp;
}

/** The pointer's segments, array positions as numbers, read against the document the operation applies to. */
function segmentsOf(pointer: string, document: unknown): Array<string | number> {
  const segments: Array<string | number> = [];
  let container = document;
  for (const token of pointer.split('/').slice(1)) {
    const key = fastJsonPatch.unescapePathComponent(token);
    if (Array.isArray(container)) {
      segments.push(Number(key));
      container = container[Number(key)];
    } else {
      segments.push(key);
      container = isPlainObject(container) ? container[key] : undefined;
    }
  }
  return segments;
}

/**
 * Puts operations in the order of a walk that sorts object keys: under one object its removed keys first, then every
 * other key; under one array ascending positions, removals from the end backwards so each index is still valid when
 * its operation applies. fast-json-patch walks keys the other way round; the order is part of the fingerprint
 * stored with every change (0080), so it must not move.
 */
function walkOrder(a: Change, b: Change): number {
  const depth = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < depth; i += 1) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (x === y || x === undefined || y === undefined) continue;
    const xRemoved = a.segments.length === i + 1 && a.op.op === 'remove';
    const yRemoved = b.segments.length === i + 1 && b.op.op === 'remove';
    if (typeof x === 'number' && typeof y === 'number') return xRemoved && yRemoved ? y - x : x - y;
    if (xRemoved !== yRemoved) return xRemoved ? -1 : 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

function changesBetween(before: unknown, after: unknown): Change[] {
  const operations =
    isPlainObject(before) && isPlainObject(after) ? fastJsonPatch.compare(before, after) : Array.isArray(before) && Array.isArray(after) ? fastJsonPatch.compare(before, after) : null;
  if (operations === null) {
    // compare walks two objects or two arrays only; two different scalars, or a type swap, replace the whole content.
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ segments: [], op: { op: 'replace', path: '', value: after } }];
  }
  const changes: Change[] = [];
  for (const operation of operations) {
    // Without `invertible` compare emits only these three kinds.
    if (operation.op !== 'add' && operation.op !== 'remove' && operation.op !== 'replace') continue;
    const op: JsonPatchOp = operation.op === 'remove' ? { op: 'remove', path: operation.path } : { op: operation.op, path: operation.path, value: operation.value };
    changes.push({ segments: segmentsOf(operation.path, before), op });
  }
  return changes.sort(walkOrder);
}

/** RFC 6902 operations that turn `before` into `after`; arrays are compared index by index. */
export function jsonPatch(before: unknown, after: unknown): JsonPatchOp[] {
  return changesBetween(canonicalize(before), canonicalize(after)).map((change) => change.op);
}

function render(value: unknown, format: string): string {
  const canonical = canonicalize(value ?? null);
  if (format === 'yaml') return toYaml(canonical, { lineWidth: 0 });
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

/** Beyond this many edits the diff shows the whole old text removed and the new one added. */
const MAX_EDITS = 4000;

/** The text's lines without the empty one after a final newline. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A unified diff (`@@ -a,b +c,d @@` hunks with three lines of context) of two texts. */
export function unifiedDiff(before: string, after: string, label = 'config'): string {
  // Both texts end in a newline, so whether one lacked it never shows as a "\ No newline at end of file" line.
  const a = before === '' || before.endsWith('\n') ? before : `${before}\n`;
  const b = after === '' || after.endsWith('\n') ? after : `${after}\n`;
  const names = [`a/${label}`, `b/${label}`] as const;
  const patch = structuredPatch(names[0], names[1], a, b, undefined, undefined, { context: 3, maxEditLength: MAX_EDITS });
  if (patch !== undefined) return formatPatch(patch, FILE_HEADERS_ONLY);
  const removed = linesOf(a);
  const added = linesOf(b);
  const whole: StructuredPatch = {
    oldFileName: names[0],
    newFileName: names[1],
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [{ oldStart: 1, oldLines: removed.length, newStart: 1, newLines: added.length, lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)] }],
  };
  return formatPatch(whole, FILE_HEADERS_ONLY);
}

/**
 * RFC 7396: the object whose merge into `before` gives `after`. Two objects differ key by key (a key `after` lacks is
 * null); anything else, arrays included, is replaced whole, as a merge patch cannot reach inside an array.
 */
export function mergePatch(before: unknown, after: unknown): unknown {
  if (!isPlainObject(before) || !isPlainObject(after)) return after;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) patch[key] = null;
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isPlainObject(old) && isPlainObject(value)) {
      const inner = mergePatch(old, value);
      if (isPlainObject(inner) && Object.keys(inner).length > 0) patch[key] = inner;
    } else if (!Object.hasOwn(before, key) || JSON.stringify(old) !== JSON.stringify(value)) {
      patch[key] = value;
    }
  }
  return patch;
}

const SUMMARY_PATHS = 20;

/**
 * config-db's summary of a diff (ExtractLeafNodesAndCommonParents over the merge patch), which change mappings compare
 * (`summary == "status.containerStatuses"`): the dotted path of every leaf (a value that is not an object, so an array
 * is one leaf), where two or more leaves share a parent the parent's path instead. Two departures, both for the
 * reader: config-db names the root as an empty path when several top-level keys change, where this lists those keys;
 * and the paths are sorted (Go's map order is random) and cut after 20 with "and N more".
 */
function summaryOf(patch: unknown): string {
  if (!isPlainObject(patch)) return '(root)';
  const leaves: Array<{ path: string; parent: string }> = [];
  const walk = (node: Record<string, unknown>, parent: string): void => {
    for (const [key, value] of Object.entries(node)) {
      const path = parent === '' ? key : `${parent}.${key}`;
      // An empty object is a leaf too (config-db skips it), so a key that became {} is still named.
      if (isPlainObject(value) && Object.keys(value).length > 0) walk(value, path);
      else leaves.push({ path, parent });
    }
  };
  walk(patch, '');
  const perParent = new Map<string, number>();
  for (const leaf of leaves) perParent.set(leaf.parent, (perParent.get(leaf.parent) ?? 0) + 1);
  const paths = [...new Set(leaves.map((leaf) => (leaf.parent !== '' && (perParent.get(leaf.parent) ?? 0) > 1 ? leaf.parent : leaf.path)))].sort();
  const shown = paths.slice(0, SUMMARY_PATHS).join(', ');
  return paths.length > SUMMARY_PATHS ? `${shown} and ${paths.length - SUMMARY_PATHS} more` : shown;
}

/**
 * The severity rule: a change is 'medium' when it swaps a container's image (a rollout) or scales a workload to zero
 * replicas (an outage by hand); every other change is 'info'.
 */
function severityOf(changes: readonly Change[]): 'info' | 'medium' {
  for (const change of changes) {
    const last = change.segments[change.segments.length - 1];
    const parent = change.segments[change.segments.length - 3];
    if (last === 'image' && typeof parent === 'string' && /containers$/i.test(parent) && change.op.op !== 'remove') return 'medium';
    if (last === 'replicas' && change.op.op !== 'remove' && change.op.value === 0) return 'medium';
  }
  return 'info';
}

/** The change between two contents of an item, or null when they are equal. */
export function diffContent(before: unknown, after: unknown, format: string): ContentDiff | null {
  const changes = changesBetween(canonicalize(before), canonicalize(after));
  if (changes.length === 0) return null;
  const patches = changes.map((change) => change.op);
  const patch = mergePatch(canonicalize(before ?? null), canonicalize(after ?? null));
  const renderAs = format === 'yaml' ? 'yaml' : 'json';
  return {
    diff: unifiedDiff(render(before, renderAs), render(after, renderAs)),
    patches,
    mergePatch: patch,
    summary: summaryOf(patch),
    severity: severityOf(changes),
    fingerprint: createHash('sha256').update(JSON.stringify(patches)).digest('hex'),
  };
}
