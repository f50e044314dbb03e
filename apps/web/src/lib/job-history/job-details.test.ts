import { describe, expect, it } from 'vitest';
import { hasJobDetails, jobErrors, jobResourcePath, mostCommonError } from './job-details';

describe('job details', () => {
  it('picks the error seen most often, the first one on a tie', () => {
    expect(mostCommonError(['a', 'b', 'b', 'c'])).toBe('b');
    expect(mostCommonError(['x', 'y'])).toBe('x');
    expect(mostCommonError([])).toBeNull();
  });

  it('reads errors written as strings or as objects with a message', () => {
    expect(jobErrors({ errors: ['one', { message: 'two' }, '', null] })).toEqual(['one', 'two']);
    expect(jobErrors({ errors: 'not a list' })).toEqual([]);
    expect(jobErrors(null)).toEqual([]);
  });

  it('has details only when errors, a scrape summary or a summary hold something', () => {
    expect(hasJobDetails({})).toBe(false);
    expect(hasJobDetails({ errors: [], summary: {}, scrape_summary: null })).toBe(false);
    expect(hasJobDetails(null)).toBe(false);
    expect(hasJobDetails({ errors: ['boom'] })).toBe(true);
    expect(hasJobDetails({ scrape_summary: { changes: 1 } })).toBe(true);
    expect(hasJobDetails({ summary: { checks: 3 } })).toBe(true);
  });

  it('links each resource type to its page as spec 001 §2.7 lists them', () => {
    expect(jobResourcePath('canary', 'c1')).toBe('/settings/canaries/c1');
    expect(jobResourcePath('config_scraper', 's1')).toBe('/catalog/scrapers/s1');
    expect(jobResourcePath('catalog_scraper', 's2')).toBe('/catalog/scrapers/s2');
    expect(jobResourcePath('topology', 't1')).toBe('/settings/topologies/t1');
    expect(jobResourcePath('config', 'i1')).toBe('/catalog/i1');
    expect(jobResourcePath('playbook', 'p1')).toBe('/playbooks/p1');
    expect(jobResourcePath('agent', 'a1')).toBe('/settings/agents?id=a1');
    expect(jobResourcePath('retention', 'r1')).toBeNull();
    expect(jobResourcePath('canary', null)).toBeNull();
  });
});
