import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { canonicalJson, diffContent, jsonPatch, mergePatch, unifiedDiff } from './ingest-diff';

const deployment = (image: string, replicas: number): unknown => ({
  kind: 'Deployment',
  metadata: { name: 'checkout' },
  spec: { replicas, template: { spec: { containers: [{ name: 'app', image }] } } },
});

describe('canonicalJson', () => {
  it('renders objects with the same keys in any order identically', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }));
  });
});

describe('jsonPatch', () => {
  it('lists adds, removes and replaces as RFC 6902 operations with escaped pointers', () => {
    expect(jsonPatch({ a: 1, 'x/y': 1, list: [1, 2, 3] }, { a: 2, b: { 'm~n': true }, list: [1] })).toEqual([
      { op: 'remove', path: '/x~1y' },
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/b', value: { 'm~n': true } },
      { op: 'remove', path: '/list/2' },
      { op: 'remove', path: '/list/1' },
    ]);
  });

  it('lists operations that, applied in order, turn the old content into the new one', () => {
    const key = fc.constantFrom('a', 'b', 'x/y', 'm~n', '10', '2');
    const content = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer({ min: 0, max: 3 }), fc.constantFrom('s', null, true), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(content, content, (before, after) => {
        const { newDocument } = fastJsonPatch.applyPatch(structuredClone(before), jsonPatch(before, after));
        expect(canonicalJson(newDocument)).toBe(canonicalJson(after));
      }),
    );
  });

  it('finds nothing between equal contents whatever their key order', () => {
    expect(jsonPatch({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toEqual([]);
  });
});

describe('unifiedDiff', () => {
  it('writes one hunk with three lines of context around a changed line', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n');
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9'].join('\n');
    expect(unifiedDiff(before, after)).toBe(
      ['--- a/config', '+++ b/config', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
    );
  });

  it('splits edits far apart into separate hunks', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i === 2 || i === 25 ? `${line} changed` : line));
    const diff = unifiedDiff(lines.join('\n'), changed.join('\n'));
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@']);
  });

  it('joins edits six unchanged lines apart into one hunk, as diff -u does, since their contexts would touch', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i === 5 || i === 12 ? `${line} changed` : line));
    expect(unifiedDiff(lines.join('\n'), changed.join('\n')).match(/^@@ .* @@$/gm)).toEqual(['@@ -3,14 +3,14 @@']);
  });

  it('shows a change of more than 4,000 edits as the whole old text removed and the new one added', () => {
    const before = Array.from({ length: 2001 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 2001 }, (_, i) => `new ${i}`).join('\n');
    const diff = unifiedDiff(before, after).split('\n');
    expect(diff.slice(0, 4)).toEqual(['--- a/config', '+++ b/config', '@@ -1,2001 +1,2001 @@', '-old 0']);
    expect(diff.slice(2003, 2005)).toEqual(['-old 2000', '+new 0']);
  });

  it('describes a text grown from nothing as one added hunk', () => {
    expect(unifiedDiff('', 'a\nb\n')).toBe(['--- a/config', '+++ b/config', '@@ -0,0 +1,2 @@', '+a', '+b', ''].join('\n'));
  });
});

describe('diffContent', () => {
  it('answers null for equal contents', () => {
    expect(diffContent({ a: [1] }, { a: [1] }, 'json')).toBeNull();
  });

  it('names the changed paths in the summary as config-db does, an array as one leaf, and renders the diff in the item format', () => {
    const change = diffContent(deployment('shop/checkout:1.4', 3), deployment('shop/checkout:1.5', 2), 'yaml');
    expect(change?.summary).toBe('spec.replicas, spec.template.spec.containers');
    expect(change?.mergePatch).toEqual({ spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'shop/checkout:1.5' }] } } } });
    expect(change?.diff).toContain('-        - image: shop/checkout:1.4\n+        - image: shop/checkout:1.5');
    expect(change?.diff).toContain('-  replicas: 3\n+  replicas: 2');
    expect(change?.patches).toEqual([
      { op: 'replace', path: '/spec/replicas', value: 2 },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/checkout:1.5' },
    ]);
  });

  it('rates an image change and a scale to zero medium and anything else info', () => {
    expect(diffContent(deployment('a:1', 3), deployment('a:2', 3), 'json')?.severity).toBe('medium');
    expect(diffContent(deployment('a:1', 3), deployment('a:1', 0), 'json')?.severity).toBe('medium');
    expect(diffContent(deployment('a:1', 3), deployment('a:1', 4), 'json')?.severity).toBe('info');
  });

  it('gives the same change the same fingerprint and a different change another', () => {
    const first = diffContent(deployment('a:1', 3), deployment('a:1', 4), 'json');
    const again = diffContent({ ...(deployment('a:1', 3) as object), extra: undefined }, deployment('a:1', 4), 'yaml');
    const other = diffContent(deployment('a:1', 4), deployment('a:1', 3), 'json');
    expect(first?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(again?.fingerprint).toBe(first?.fingerprint);
    expect(other?.fingerprint).not.toBe(first?.fingerprint);
  });

  it('names the parent where two or more leaves under it changed, and dotted keys as config-db joins them', () => {
    const before = { status: { a: 1, b: 1, conditions: [] }, metadata: { annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': 't1' } } };
    const after = { status: { a: 2, b: 2, conditions: [] }, metadata: { annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': 't2' } } };
    expect(diffContent(before, after, 'json')?.summary).toBe('metadata.annotations.endpoints.kubernetes.io/last-change-trigger-time, status');
  });

  it('lists top-level keys by name where config-db would give an empty summary, and names a key that became empty', () => {
    expect(diffContent({ a: 1, b: 1 }, { a: 2, b: 2 }, 'json')?.summary).toBe('a, b');
    expect(diffContent({ a: { b: 1 } }, { a: { b: 1, c: {} } }, 'json')?.summary).toBe('a.c');
  });

  it('shortens a summary of many paths', () => {
    const before = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i]));
    const after = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i + 1]));
    const summary = diffContent(before, after, 'json')?.summary;
    expect(summary).toMatch(/^k00, k01, .*, k19 and 5 more$/);
  });
});

describe('mergePatch', () => {
  it('gives RFC 7396 patches: removed keys null, objects key by key, arrays whole', () => {
    expect(mergePatch({ a: 1, gone: true, o: { x: 1, y: 1 }, list: [1, 2] }, { a: 1, o: { x: 1, y: 2 }, list: [1], added: 'n' })).toEqual({
      gone: null,
      o: { y: 2 },
      list: [1],
      added: 'n',
    });
    expect(mergePatch([1], [2])).toEqual([2]);
  });

  it('gives a patch whose merge into the old content is the new one', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 })),
    })).node;
    const merge = (target: unknown, patch: unknown): unknown => {
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
      const base = typeof target === 'object' && target !== null && !Array.isArray(target) ? (target as Record<string, unknown>) : {};
      const merged = new Map(Object.entries(base));
      for (const [key, entry] of Object.entries(patch)) {
        if (entry === null) merged.delete(key);
        else merged.set(key, merge(merged.get(key), entry));
      }
      return Object.fromEntries(merged);
    };
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c'), value), fc.dictionary(fc.constantFrom('a', 'b', 'c'), value), (before, after) => {
        expect(merge(before, mergePatch(before, after))).toEqual(after);
      }),
    );
  });
});
