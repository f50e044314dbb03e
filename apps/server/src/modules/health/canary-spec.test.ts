import { describe, expect, it } from 'vitest';
import { CanarySpecError, checksFromCanarySpec, parseCheckSpec } from './canary-spec';

function issuesOf(spec: Record<string, unknown>): string[] {
  try {
    checksFromCanarySpec(spec);
  } catch (error) {
    if (error instanceof CanarySpecError) return error.issues;
    throw error;
  }
  return [];
}

describe('elasticsearch and alertmanager checks in a canary spec', () => {
  it('accepts both types with a URL or a stored connection and shows either as the endpoint', () => {
    const checks = checksFromCanarySpec({
      schedule: '@every 5m',
      elasticsearch: [
        {
          name: 'errors',
          url: 'https://es:9200',
          index: 'logs-*,audit',
          query: '{"term":{"level":"error"}}',
          results: 0,
          thresholdMillis: 500,
          authentication: { username: 'elastic', password: { value: 'pw' } },
        },
        { name: 'stored', connection: 'connection://default/es', index: 'logs', query: { query: { match_all: {} } } },
      ],
      alertmanager: [
        {
          name: 'prod',
          connection: 'connection://monitoring/alertmanager',
          alerts: ['Kube.*', 'TargetDown'],
          ignore: ['Watchdog'],
          filters: { severity: 'critical' },
          exclude_filters: { namespace: 'dev' },
        },
      ],
    });
    expect(checks.map((check) => [check.type, check.name, check.endpoint])).toEqual([
      ['elasticsearch', 'errors', 'https://es:9200'],
      ['elasticsearch', 'stored', 'connection://default/es'],
      ['alertmanager', 'prod', 'connection://monitoring/alertmanager'],
    ]);
  });

  it('reads secret-capable credentials as plain strings', () => {
    const spec = parseCheckSpec('elasticsearch', { name: 'es', url: 'http://es', index: 'logs', authentication: { username: { value: 'elastic' }, password: 'pw' } });
    expect(spec.authentication).toEqual({ username: 'elastic', password: 'pw' });
  });

  it('requires a URL or connection for both types and an index for elasticsearch', () => {
    expect(issuesOf({ elasticsearch: [{ name: 'es', index: 'logs' }], alertmanager: [{ name: 'am' }] })).toEqual([
      'elasticsearch[0].url: Set url or connection',
      'alertmanager[0].url: Set url or connection',
    ]);
    expect(issuesOf({ elasticsearch: [{ name: 'es', url: 'http://es' }] })).toEqual([expect.stringMatching(/^elasticsearch\[0\]\.index: /)]);
  });

  it('refuses an index that would leave its path and filters on names that are not label names', () => {
    expect(issuesOf({ elasticsearch: [{ name: 'es', url: 'http://es', index: '../_cluster' }] })).toEqual([
      expect.stringMatching(/^elasticsearch\[0\]\.index: must be an index name/),
    ]);
    expect(issuesOf({ alertmanager: [{ name: 'am', url: 'http://am', filters: { 'bad-label': 'x' } }] })).toEqual([
      expect.stringMatching(/^alertmanager\[0\]\.filters\.bad-label: must be a label name/),
    ]);
  });

  it('refuses a results count that is not a whole number and alerts that are not a list', () => {
    expect(issuesOf({ elasticsearch: [{ name: 'es', url: 'http://es', index: 'logs', results: 1.5 }] })).toEqual([
      expect.stringMatching(/^elasticsearch\[0\]\.results: /),
    ]);
    expect(issuesOf({ alertmanager: [{ name: 'am', url: 'http://am', alerts: 'TargetDown' }] })).toEqual([expect.stringMatching(/^alertmanager\[0\]\.alerts: /)]);
  });
});
