import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXAMPLE_SPEC, requiredFieldsSummary, specHints } from './scraper-spec';

describe('specHints', () => {
  it('asks a pasted config-db file scraper for neither format nor icon, which only the form used to want', () => {
    expect(specHints({ file: [{ type: 'Car', class: 'Car', id: '$.reg_no', paths: ['data/car.json'] }] })).toEqual([]);
  });

  it('finds nothing missing in the example that Add Scraper starts from', () => {
    expect(specHints(parse(EXAMPLE_SPEC) as Record<string, unknown>)).toEqual([]);
  });

  it('names the required fields each source entry lacks, by the entry the server would name', () => {
    const hints = specHints({ file: [{ format: 'yaml', icon: 'file' }, { paths: ['/x'] }], kubernetes: [{}], sql: [{ type: 'Db::Row', id: '$.id', url: 'postgres://db', query: '' }] });
    expect(hints).toEqual([
      { where: 'file[0]', message: 'Required: paths' },
      { where: 'kubernetes[0]', message: 'Required: clusterName' },
      { where: 'sql[0]', message: 'Required: query' },
    ]);
  });

  it('accepts an http source with a connection in place of a url', () => {
    expect(specHints({ http: [{ type: 'Api::Thing', id: '$.id', connection: 'connection://default/api' }] })).toEqual([]);
    expect(specHints({ http: [{ type: 'Api::Thing', id: '$.id' }] })).toEqual([{ where: 'http[0]', message: 'Required: url or connection' }]);
  });

  it('warns that a kind this server does not run will be refused, listing the kinds it runs', () => {
    expect(specHints({ aws: [{ regions: ['eu-west-1'] }] })).toEqual([
      { where: 'aws', message: 'This server does not run aws scrapers; it runs file, http, sql, kubernetes, kubernetesFile, exec.' },
    ]);
  });

  it('reads a pasted Mission Control resource through its spec and ignores keys that are not kinds', () => {
    expect(specHints({ apiVersion: 'configs.flanksource.com/v1', kind: 'ScrapeConfig', spec: { schedule: '@hourly', kubernetes: [{}] } })).toEqual([
      { where: 'kubernetes[0]', message: 'Required: clusterName' },
    ]);
  });
});

describe('requiredFieldsSummary', () => {
  it('lists every runnable kind with its required fields', () => {
    expect(requiredFieldsSummary()).toEqual([
      'file: paths',
      'http: url or connection',
      'sql: connection or url, query',
      'kubernetes: clusterName',
      'kubernetesFile: no required fields',
      'exec: script',
    ]);
  });
});
