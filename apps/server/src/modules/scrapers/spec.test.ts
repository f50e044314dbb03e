import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { DEFAULT_SCRAPE_TIMEOUT_MS, jsonPathProblem, parseScraperSpec, validateScraperSpec } from './spec';

const ROOTS = ['/srv/scrape', '/data/more'];
const file = { type: '$.kind', id: '$.metadata.uid', paths: ['/srv/scrape/*.yaml'], format: 'yaml', icon: 'kubernetes' };

function refusal(spec: unknown): { code: string; details: string | null } {
  try {
    validateScraperSpec(spec, { roots: ROOTS });
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('the spec was accepted');
}

describe('parseScraperSpec', () => {
  it('unwraps a ScrapeConfig resource and lists its sources in spec order with their index per kind', () => {
    const parsed = parseScraperSpec({
      apiVersion: 'configs.flanksource.com/v1',
      kind: 'ScrapeConfig',
      metadata: { name: 'x' },
      spec: { http: [{ url: 'a' }], file: [{ paths: ['1'] }, { paths: ['2'] }], full: true },
    });
    expect(parsed.sources).toEqual([
      { kind: 'http', index: 0, spec: { url: 'a' } },
      { kind: 'file', index: 0, spec: { paths: ['1'] } },
      { kind: 'file', index: 1, spec: { paths: ['2'] } },
    ]);
    expect(parsed.schedule).toBeNull();
    expect(parsed.timeoutMs).toBe(DEFAULT_SCRAPE_TIMEOUT_MS);
  });

  it('converts retention ages to milliseconds and keeps counts', () => {
    const parsed = parseScraperSpec({
      schedule: '@every 5m',
      file: [file],
      retention: {
        changes: [{ name: 'diff', age: '7d', count: 50 }, { name: 'Pulled' }],
        types: [{ name: 'Kubernetes::Pod', createdAge: '30d', updatedAge: '1h', deletedAge: '2d' }],
      },
    });
    expect(parsed.schedule).toBe('@every 5m');
    expect(parsed.retention).toEqual({
      changes: [
        { name: 'diff', maxAgeMs: 7 * 86_400_000, count: 50 },
        { name: 'Pulled', maxAgeMs: null, count: null },
      ],
      types: [{ name: 'Kubernetes::Pod', createdAgeMs: 30 * 86_400_000, updatedAgeMs: 3_600_000, deletedAgeMs: 2 * 86_400_000 }],
    });
  });

  it('caps the timeout at one hour', () => {
    expect(parseScraperSpec({ file: [file], timeout: '5m' }).timeoutMs).toBe(300_000);
    expect(parseScraperSpec({ file: [file], timeout: '3h' }).timeoutMs).toBe(3_600_000);
  });
});

describe('jsonPathProblem', () => {
  it('accepts names, wildcards, recursive descent, indexes, slices, quoted names and unions', () => {
    for (const path of ['$', '$.metadata.name', '$..items[*]', '$.a[0]', '$.a[-1:]', "$['a b'].c", '$.a[0,2]', '$..[0]', '$.*.id', "$.labels['app.kubernetes.io/name']"]) {
      expect(jsonPathProblem(path), path).toBeNull();
    }
  });

  it('refuses paths that do not parse', () => {
    for (const path of ['$[', '$.a[', '$.', '$..', 'metadata.name', '$.a b', '$.a[x]', '$.a[]']) {
      expect(jsonPathProblem(path), path).not.toBeNull();
    }
  });

  it('refuses filter and script expressions, which scrapers never evaluate', () => {
    expect(jsonPathProblem('$.a[?(@.x==1)]')).toMatch(/filter or script/);
    expect(jsonPathProblem('$.a[(@.length-1)]')).toMatch(/filter or script/);
  });
});

describe('validateScraperSpec', () => {
  it('accepts a Mission Control ScrapeConfig with fields this server does not use', () => {
    expect(() =>
      validateScraperSpec(
        {
          apiVersion: 'configs.flanksource.com/v1',
          kind: 'ScrapeConfig',
          metadata: { name: 'prod' },
          spec: {
            schedule: '@every 30m',
            full: true,
            logLevel: 'debug',
            retention: { changes: [{ name: 'diff', age: '7d', count: 10 }], types: [{ name: 'Kubernetes::Pod', deletedAge: '1h' }] },
            kubernetes: [{ clusterName: 'prod', useCache: true, watch: [{ kind: 'Pod' }], kubeconfig: { valueFrom: { secretKeyRef: { name: 'k', key: 'c' } } } }],
            kubernetesFile: [{ selector: { kind: 'Pod' }, files: [{ path: ['/srv/scrape/app.yaml'], format: 'yaml' }] }],
            file: [{ ...file, transform: { exclude: [{ jsonpath: '$.status' }] }, paths: ['relative/*.json'] }],
            http: [{ type: 'Api::Status', id: '$.id', connection: 'connection://default/api', pagination: { next: 'x' } }],
            sql: [{ type: 'Db::Row', id: '$.id', connection: 'connection://default/db', query: 'select 1 as id' }],
          },
        },
        { roots: ROOTS },
      ),
    ).not.toThrow();
  });

  it('refuses the kinds this server does not run, listing those it does', () => {
    for (const kind of ['aws', 'azure', 'githubActions', 'azureDevops', 'trivy', 'custom']) {
      const error = refusal({ file: [file], [kind]: [{}] });
      expect(error, kind).toEqual({ code: 'OD_SCRAPER_KIND', details: `spec.${kind}` });
    }
  });

  it('names the missing required field of each runnable kind', () => {
    expect(refusal({ kubernetes: [{}] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].clusterName' });
    expect(refusal({ file: [{ ...file, icon: undefined }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].icon' });
    expect(refusal({ http: [{ type: 't', id: 'i' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.http[0].url' });
    expect(refusal({ sql: [{ type: 't', id: 'i', query: 'select 1' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.sql[0].connection' });
  });

  it('names a JSONPath that does not parse', () => {
    expect(refusal({ file: [{ ...file, id: '$.metadata[' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].id' });
    expect(refusal({ file: [file, { ...file, items: '$.items[?(@.x)]' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[1].items' });
  });

  it('refuses globs outside the roots and paths that climb with ..', () => {
    expect(refusal({ file: [{ ...file, paths: ['/srv/scrape/a.json', '/etc/*.conf'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[1]' });
    expect(refusal({ file: [{ ...file, paths: ['/srv/**/*.yaml'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' });
    expect(refusal({ file: [{ ...file, paths: ['/srv/scrape/../../etc/passwd'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' });
    expect(refusal({ file: [{ ...file, paths: ['../x.json'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' });
    expect(refusal({ file: [{ ...file, paths: ['/srv/scrape/{a,..}/x'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' });
    expect(refusal({ file: [{ ...file, paths: ['/srv/scraper-other/x.json'] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths[0]' });
    expect(refusal({ kubernetesFile: [{ files: [{ path: ['/root/.kube/config'] }] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetesFile[0].files[0].path[0]' });
  });

  it('refuses an inline kubeconfig and takes a connection reference', () => {
    expect(refusal({ kubernetes: [{ clusterName: 'c', kubeconfig: { value: 'apiVersion: v1\nkind: Config' } }] })).toEqual({
      code: 'OD_SCRAPER_SPEC',
      details: 'spec.kubernetes[0].kubeconfig.value',
    });
    expect(refusal({ kubernetes: [{ clusterName: 'c', kubeconfig: 'apiVersion: v1' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].kubeconfig' });
    expect(() => validateScraperSpec({ kubernetes: [{ clusterName: 'c', kubeconfig: 'connection://default/k8s' }] }, { roots: ROOTS })).not.toThrow();
    expect(() => validateScraperSpec({ kubernetes: [{ clusterName: 'c', kubeconfig: { value: 'connection://default/k8s' } }] }, { roots: ROOTS })).not.toThrow();
  });

  it('refuses a bad schedule, a timeout over one hour and bad retention', () => {
    expect(refusal({ file: [file], schedule: '@every nope' })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.schedule' });
    expect(refusal({ file: [file], timeout: '2h' })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.timeout' });
    expect(refusal({ file: [file], retention: { changes: [{ name: 'diff', age: 'soon' }] } })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.retention.changes[0].age' });
    expect(refusal({ file: [file], retention: { types: [{ createdAge: '1d' }] } })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.retention.types[0].name' });
  });

  it('refuses a spec without a source and one that is not an object', () => {
    expect(refusal({ schedule: '@daily' })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec' });
    expect(refusal('file: []')).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec' });
    expect(refusal({ file: 'x' })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file' });
  });

  it('reads nothing at all when no roots are allowed', () => {
    expect(() => validateScraperSpec({ file: [file] }, { roots: [] })).toThrow(/OPSDECK_SCRAPE_ROOTS/);
  });
});
