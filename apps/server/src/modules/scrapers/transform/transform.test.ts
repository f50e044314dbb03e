import { describe, expect, it } from 'vitest';
import type { ScrapedChange, ScrapedItem, ScrapeResult } from '../types';
import { applyTransform, matchesGlobs } from './transform';
import { fillTemplate, templateProblem } from './property-template';
import { celProblem } from './scrape-cel';

function item(externalId: string, type: string, config: Record<string, unknown>, labels: Record<string, string> = {}): ScrapedItem {
  return { type, externalId, name: externalId, tags: {}, labels, config, format: 'json' };
}

function result(items: ScrapedItem[], changes: ScrapedChange[] = []): ScrapeResult {
  return { items, relationships: [], changes, errors: [], complete: true };
}

const signal = new AbortController().signal;

describe('applyTransform', () => {
  it('removes excluded paths per type without touching the configs the source returned', () => {
    const found = result([item('a', 'App::One', { password: 'x', keep: 1 }), item('b', 'App::Two', { password: 'y', secret: 's' })]);
    const out = applyTransform({ transform: { exclude: [{ jsonpath: '.password' }, { types: ['App::T*'], jsonpath: '$.secret' }] } }, found, 'file[0]', signal);
    expect(out.items.map((entry) => entry.config)).toEqual([{ keep: 1 }, {}]);
    expect(found.items[0]?.config).toEqual({ password: 'x', keep: 1 });
  });

  it('masks only where a selector holds, and reports a selector that cannot be judged', () => {
    const found = result([item('a', 'App::One', { name: 'one', token: 'abc' }), item('b', 'App::One', { token: 'def' })]);
    const out = applyTransform(
      { transform: { mask: [{ selector: "config.name == 'one'", jsonpath: '.token', value: '***' }, { jsonpath: '.token', value: 'never' }] } },
      found,
      'file[0]',
      signal,
    );
    expect(out.items.map((entry) => entry.config)).toEqual([{ name: 'one', token: '***' }, { token: 'def' }]);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]?.where).toBe('file[0] transform.mask[0].selector');
    expect(out.complete).toBe(true);
  });

  it('stops when the run is aborted', () => {
    const controller = new AbortController();
    controller.abort();
    expect(() => applyTransform({ transform: { exclude: [{ jsonpath: '.a' }] } }, result([item('a', 'T', {})]), 'file[0]', controller.signal)).toThrow(/stopped/);
  });
});

describe('matchesGlobs', () => {
  it('matches config-db type globs with * and ! exclusions, and everything when the list is empty', () => {
    expect(matchesGlobs('Kubernetes::Pod', ['Kubernetes::*'])).toBe(true);
    expect(matchesGlobs('Kubernetes::Pod', ['Kubernetes::*', '!Kubernetes::Pod'])).toBe(false);
    expect(matchesGlobs('AWS::EC2', ['!Kubernetes::*'])).toBe(true);
    expect(matchesGlobs('anything', [])).toBe(true);
  });
});

describe('property templates', () => {
  it('fills {{.path}} and $(.path) and refuses anything but a path', () => {
    expect(fillTemplate('{{ .name }} in $(.config.region) ({{.missing}})', { name: 'web', config: { region: 'eu' } })).toBe('web in eu ()');
    expect(templateProblem('{{.name}} $(.config.a)')).toBeNull();
    expect(templateProblem('{{ .name | upper }}')).toMatch(/only a path/);
    expect(templateProblem('{{ range .items }}')).toMatch(/only a path/);
  });
});

describe('scraper CEL', () => {
  it('compiles config-db expressions over their own variables and refuses unknown names and functions', () => {
    expect(celProblem('item', 'config_type == "Kubernetes::Pod" && has(config.spec)', true)).toBeNull();
    expect(celProblem('script', 'dyn(config).map(i, i).toJSON()', false)).toBeNull();
    expect(celProblem('change', "change_type == 'diff' && details.message == 'x'", true)).toBeNull();
    expect(celProblem('item', 'change_type == "diff"', true)).not.toBeNull();
    expect(celProblem('change', "jmespath('a', config) == 'b'", true)).not.toBeNull();
    expect(celProblem('change', "jq('.a', patch) == 'b' && has(patch.status.list[0].count) && change.summary == summary", true)).toBeNull();
    expect(celProblem('item', '"text"', true)).toMatch(/bool/);
  });
});
