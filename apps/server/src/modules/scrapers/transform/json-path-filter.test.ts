import { describe, expect, it } from 'vitest';
import { filterProblem } from './json-path-filter';
import { evaluateScraperJsonPath } from './json-path-grammar';

const instance = {
  Tags: [
    { Key: 'Env', Value: 'prod' },
    { Key: 'Name', Value: 'web-1' },
    { Key: 'Name', Value: 'web-2' },
  ],
  Disks: [
    { id: 'a', size: 10, kind: 'ssd', meta: { zone: 'z1' } },
    { id: 'b', size: '20', kind: 'hdd' },
    { id: 'c', size: 30.0, kind: 'ssd', meta: { zone: 'z2' } },
  ],
};

function values(path: string): unknown {
  return evaluateScraperJsonPath(path, instance, 'value');
}

describe('JSONPath filters in scraper fields', () => {
  it('picks the elements whose fields compare as the filter says, in document order', () => {
    expect(values('$.Tags[?(@.Key=="Name")].Value')).toEqual(['web-1', 'web-2']);
    expect(values("$.Disks[?(@.kind == 'ssd' && @.meta.zone != 'z1')].id")).toEqual(['c']);
    expect(values("$.Disks[?(!(@.kind == 'ssd') || @.size >= 30)].id")).toEqual(['b', 'c']);
  });

  it('compares as config-db (ojg) does: no string-number coercion, 30 equals 30.0, and a missing field equals nothing', () => {
    expect(values('$.Disks[?(@.size == 20)].id')).toEqual([]);
    expect(values('$.Disks[?(@.size > 5)].id')).toEqual(['a', 'c']);
    expect(values('$.Disks[?(@.size == 30.0)].id')).toEqual(['c']);
    expect(values('$.Disks[?(@.meta.zone == null)].id')).toEqual([]);
    expect(values("$.Disks[?(@.meta.zone != 'z9')].id")).toEqual(['a', 'b', 'c']);
  });

  it('refuses what it cannot read the same way as ojg instead of guessing', () => {
    expect(filterProblem('@.a == 1 && @.b == 2 || @.c == 3')).toMatch(/mixes && and \|\|/);
    expect(filterProblem('@.a.constructor("x")')).not.toBeNull();
    expect(filterProblem('@.a == "@.b"')).not.toBeNull();
    expect(filterProblem('@root.a == 1')).not.toBeNull();
    expect(filterProblem('!@.a')).toMatch(/'!'/);
    expect(filterProblem('@.a + 1 == 2')).not.toBeNull();
  });

  it('never hands a script expression to jsonpath-plus, even for a path that skipped the save rules', () => {
    expect(() => values('$.Disks[(@.length-1)]')).toThrow(/filter or script/);
  });
});
