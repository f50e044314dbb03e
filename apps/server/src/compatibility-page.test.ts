import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPATIBILITY_PAGE, renderCompatibilityPage } from './compatibility-page';

describe('docs/compatibility.md', () => {
  it('holds exactly what the catalogues generate (run npm run docs:compatibility after changing one)', () => {
    const page = readFileSync(COMPATIBILITY_PAGE, 'utf8');
    expect(renderCompatibilityPage(page)).toBe(page);
  });

  it('rewrites only the text between a section’s markers and keeps the rest as written', () => {
    const section = { name: 'demo', render: () => 'new table' };
    const page = 'intro\n<!-- BEGIN GENERATED demo: npm run docs:compatibility writes this block -->\nold table\n<!-- END GENERATED demo -->\noutro\n';
    expect(renderCompatibilityPage(page, [section])).toBe(
      'intro\n<!-- BEGIN GENERATED demo: npm run docs:compatibility writes this block -->\nnew table\n<!-- END GENERATED demo -->\noutro\n',
    );
  });

  it('names the markers to add when a section has no block in the page', () => {
    expect(() => renderCompatibilityPage('no blocks here', [{ name: 'demo', render: () => '' }])).toThrow(/<!-- END GENERATED demo -->/);
  });
});
