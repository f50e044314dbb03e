import { describe, expect, it } from 'vitest';
import { ignoresChange, ignoresChangeType, ignoresObject } from './change-annotations';

describe("config-db's annotations", () => {
  it('leave an object out only for true or *', () => {
    expect(ignoresObject({ 'config-db.flanksource.com/ignore': 'true' })).toBe(true);
    expect(ignoresObject({ 'config-db.flanksource.com/ignore': '*' })).toBe(true);
    expect(ignoresObject({ 'config-db.flanksource.com/ignore': 'false' })).toBe(false);
    expect(ignoresObject({})).toBe(false);
  });

  it('drop changes whose type or severity a comma list of globs names, with ! leaving one out', () => {
    const labels = { 'config-db.flanksource.com/ignore-changes': 'Back*, diff', 'config-db.flanksource.com/ignore-change-severity': 'info' };
    expect(ignoresChange(labels, 'BackOff', 'warning')).toBe(true);
    expect(ignoresChange(labels, 'Pulled', 'info')).toBe(true);
    expect(ignoresChange(labels, 'Pulled', 'warning')).toBe(false);
    expect(ignoresChangeType(labels, 'diff')).toBe(true);
    expect(ignoresChangeType({ 'config-db.flanksource.com/ignore-changes': '!diff' }, 'diff')).toBe(false);
    expect(ignoresChangeType({ 'config-db.flanksource.com/ignore-changes': '!diff' }, 'Pulled')).toBe(true);
    expect(ignoresChangeType({ 'config-db.flanksource.com/ignore-changes': '' }, 'diff')).toBe(false);
    expect(ignoresChangeType({}, 'diff')).toBe(false);
  });
});
