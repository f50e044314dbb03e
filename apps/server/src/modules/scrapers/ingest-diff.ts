import { createHash } from 'node:crypto';
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
  /** The changed paths, e.g. `spec.replicas, spec.template.spec.containers[0].image`. */
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

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Readable path segments for the summary: `a.b[0].c`, with odd keys quoted. */
function readablePath(segments: Array<string | number>): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}

interface Change {
  segments: Array<string | number>;
  op: JsonPatchOp;
  before: unknown;
}

function collect(before: unknown, after: unknown, segments: Array<string | number>, out: Change[]): void {
  const path = segments.map((s) => `/${pointerToken(String(s))}`).join('');
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of Object.keys(before).sort()) {
      if (!(key in after)) out.push({ segments: [...segments, key], op: { op: 'remove', path: `${path}/${pointerToken(key)}` }, before: before[key] });
    }
    for (const key of Object.keys(after).sort()) {
      const next = [...segments, key];
      if (key in before) collect(before[key], after[key], next, out);
      else out.push({ segments: next, op: { op: 'add', path: `${path}/${pointerToken(key)}`, value: after[key] }, before: undefined });
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const shared = Math.min(before.length, after.length);
    for (let i = 0; i < shared; i += 1) collect(before[i], after[i], [...segments, i], out);
    for (let i = shared; i < after.length; i += 1) {
      out.push({ segments: [...segments, i], op: { op: 'add', path: `${path}/${i}`, value: after[i] }, before: undefined });
    }
    // Removed from the end backwards, so each index is still valid when its operation applies.
    for (let i = before.length - 1; i >= shared; i -= 1) {
      out.push({ segments: [...segments, i], op: { op: 'remove', path: `${path}/${i}` }, before: before[i] });
    }
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push({ segments, op: { op: 'replace', path, value: after }, before });
  }
}

/** RFC 6902 operations that turn `before` into `after`; arrays are compared index by index. */
export function jsonPatch(before: unknown, after: unknown): JsonPatchOp[] {
  const changes: Change[] = [];
  collect(canonicalize(before), canonicalize(after), [], changes);
  return changes.map((change) => change.op);
}

function render(value: unknown, format: string): string {
  const canonical = canonicalize(value ?? null);
  if (format === 'yaml') return toYaml(canonical, { lineWidth: 0 });
  return `${JSON.stringify(canonical, null, 2)}\n`;
}

type Edit = { kind: ' ' | '-' | '+'; line: string };

/** Beyond this many edits the diff shows the whole old text removed and the new one added. */
const MAX_EDITS = 4000;

/**
 * Myers' O(ND) shortest edit script between two line lists. Each round keeps only the window of furthest reaches it
 * could have touched, so the trace for walking back from the end stays O(D²) rather than O(D·N).
 */
function editScript(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const reach = new Int32Array(2 * max + 3);
  const at = (k: number): number => reach[offset + k] ?? 0;
  const trace: Array<{ lo: number; values: Int32Array }> = [];
  let found = false;
  for (let d = 0; d <= max && !found; d += 1) {
    trace.push({ lo: -d - 1, values: reach.slice(offset - d - 1, offset + d + 2) });
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      reach[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) {
    return [...a.map((line): Edit => ({ kind: '-', line })), ...b.map((line): Edit => ({ kind: '+', line }))];
  }
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const round = trace[d];
    if (round === undefined) break;
    const was = (k: number): number => round.values[k - round.lo] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && was(k - 1) < was(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = was(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      edits.push({ kind: ' ', line: a[x] ?? '' });
    }
    if (d > 0) {
      if (down) {
        y -= 1;
        edits.push({ kind: '+', line: b[y] ?? '' });
      } else {
        x -= 1;
        edits.push({ kind: '-', line: a[x] ?? '' });
      }
    }
  }
  return edits.reverse();
}

const CONTEXT = 3;

/** A unified diff (`@@ -a,b +c,d @@` hunks with three lines of context) of two texts. */
export function unifiedDiff(before: string, after: string, label = 'config'): string {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a[a.length - 1] === '') a.pop();
  if (b[b.length - 1] === '') b.pop();
  const edits = editScript(a, b);
  // Each edit's 1-based line number in the old and the new text, counted before the edit applies.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let oldLine = 1;
  let newLine = 1;
  const changed: number[] = [];
  edits.forEach((edit, index) => {
    oldAt.push(oldLine);
    newAt.push(newLine);
    if (edit.kind !== '+') oldLine += 1;
    if (edit.kind !== '-') newLine += 1;
    if (edit.kind !== ' ') changed.push(index);
  });
  const lines = [`--- a/${label}`, `+++ b/${label}`];
  let next = 0;
  while (next < changed.length) {
    let last = changed[next] ?? 0;
    const first = last;
    next += 1;
    // Edits closer than twice the context share a hunk, as diff -u does.
    while (next < changed.length && (changed[next] ?? 0) - last <= CONTEXT * 2) {
      last = changed[next] ?? last;
      next += 1;
    }
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(edits.length, last + CONTEXT + 1);
    const hunk = edits.slice(from, to);
    const oldCount = hunk.filter((e) => e.kind !== '+').length;
    const newCount = hunk.filter((e) => e.kind !== '-').length;
    const oldStart = (oldAt[from] ?? 1) - (oldCount === 0 ? 1 : 0);
    const newStart = (newAt[from] ?? 1) - (newCount === 0 ? 1 : 0);
    lines.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const edit of hunk) lines.push(`${edit.kind}${edit.line}`);
  }
  return `${lines.join('\n')}\n`;
}

const SUMMARY_PATHS = 5;

/**
 * The severity rule: a change is 'medium' when it swaps a container's image (a rollout) or scales a workload to zero
 * replicas (an outage by hand); every other change is 'info'.
 */
function severityOf(changes: Change[]): 'info' | 'medium' {
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
  const changes: Change[] = [];
  collect(canonicalize(before), canonicalize(after), [], changes);
  if (changes.length === 0) return null;
  const patches = changes.map((change) => change.op);
  const paths = [...new Set(changes.map((change) => readablePath(change.segments)))];
  const shown = paths.slice(0, SUMMARY_PATHS).join(', ');
  const summary = paths.length > SUMMARY_PATHS ? `${shown} and ${paths.length - SUMMARY_PATHS} more` : shown;
  const renderAs = format === 'yaml' ? 'yaml' : 'json';
  return {
    diff: unifiedDiff(render(before, renderAs), render(after, renderAs)),
    patches,
    summary,
    severity: severityOf(changes),
    fingerprint: createHash('sha256').update(JSON.stringify(patches)).digest('hex'),
  };
}
