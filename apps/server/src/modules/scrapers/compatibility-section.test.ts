import { describe, expect, it } from 'vitest';
import { RUNNABLE_SCRAPER_KINDS, scraperSourceFields } from '@opsdeck/shared';
import { renderScrapeConfigCompatibility } from './compatibility-section';

describe('the ScrapeConfig section of docs/compatibility.md', () => {
  const page = renderScrapeConfigCompatibility();

  it('has a table per kind this server runs with a row for each field the save rules know', () => {
    for (const kind of RUNNABLE_SCRAPER_KINDS) {
      expect(page).toContain(`### \`${kind}\` sources`);
      for (const field of Object.keys(scraperSourceFields(kind))) expect(page).toContain(`| \`${field}\` |`);
    }
  });

  it('says which kinds, fields and values are refused, and what runs instead', () => {
    expect(page).toContain('| `aws` | **refused** (`OD_SCRAPER_KIND`)');
    expect(page).toContain("| `full` | runs | config-db's full mode");
    expect(page).toContain('| `crdSync` | **refused** unless `false`');
    expect(page).toMatch(/\| `transform\.javascript` \| runs \| JavaScript over `config`/);
    expect(page).toMatch(/\| `transform\.jsonpath` \| \*\*refused\*\* \| A JSONPath transform is not run/);
    expect(page).toContain('| `format` | runs for `json`, `yaml`; other values **refused**');
    expect(page).toContain('| `icon` | inert: accepted and kept');
  });
});
