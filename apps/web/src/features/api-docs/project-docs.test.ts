import { describe, expect, it } from 'vitest';
import { DECISION_RECORDS, projectDocBySlug, projectDocHref } from './project-docs';

describe('project docs', () => {
  it('lists every numbered decision record and neither the folder index nor the template', () => {
    const slugs = DECISION_RECORDS.map((record) => record.slug);
    expect(slugs).toContain('adr/0044-import-zones');
    expect(slugs.every((slug) => /^adr\/\d{4}-/.test(slug))).toBe(true);
  });

  it('bundles the error catalogue with the other project docs', async () => {
    const errors = projectDocBySlug('errors');
    expect(errors?.title).toBe('Errors');
    expect(await errors?.load()).toContain('OD_VALIDATION');
  });

  it('bundles the catalog API reference, naming the search function and the summary route', async () => {
    const catalog = projectDocBySlug('catalog');
    expect(catalog?.title).toBe('Catalog API');
    const text = await catalog?.load();
    expect(text).toContain('rpc/search_configs');
    expect(text).toContain('POST /api/catalog/summary');
  });
});

describe('projectDocHref', () => {
  it('keeps links between bundled docs inside the app, anchors included', () => {
    expect(projectDocHref('architecture', 'security.md')).toBe('/docs/security');
    expect(projectDocHref('architecture', 'adr/0003-run-the-server-through-tsx.md#why')).toBe('/docs/adr/0003-run-the-server-through-tsx#why');
    expect(projectDocHref('readme', 'docs/architecture.md')).toBe('/docs/architecture');
    expect(projectDocHref('adr/0003-run-the-server-through-tsx', '../security.md')).toBe('/docs/security');
  });

  it('leaves other links alone', () => {
    expect(projectDocHref('architecture', 'https://example.com/a.md')).toBeNull();
    expect(projectDocHref('architecture', 'missing.md')).toBeNull();
    expect(projectDocHref('architecture', '../apps/server/src/app.ts')).toBeNull();
  });
});
