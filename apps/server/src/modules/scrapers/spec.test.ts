import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { DEFAULT_SCRAPE_TIMEOUT_MS, parseScraperSpec, validateScraperSpec } from './spec';
import { jsonPathProblem, scraperJsonPathProblem } from './transform/json-path-grammar';

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
      { kind: 'http', index: 0, spec: { url: 'a' }, full: true },
      { kind: 'file', index: 0, spec: { paths: ['1'] }, full: true },
      { kind: 'file', index: 1, spec: { paths: ['2'] }, full: true },
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

  it('refuses filter and script expressions for readers that evaluate none (the topology lookups)', () => {
    expect(jsonPathProblem('$.a[?(@.x==1)]')).toMatch(/filter or script/);
    expect(jsonPathProblem('$.a[(@.length-1)]')).toMatch(/filter or script/);
  });

  it('takes filters in scraper fields but never a script, an unsupported filter or a pipe suffix', () => {
    expect(scraperJsonPathProblem('$.Tags[?(@.Key=="Name")].Value')).toBeNull();
    expect(scraperJsonPathProblem("$.a[?(@['b c'] == 'x' || !(@.c[0] > 2))].d")).toBeNull();
    expect(scraperJsonPathProblem('$.a[(@.length-1)]')).toMatch(/filter or script/);
    expect(scraperJsonPathProblem('$.a[?(@.x =~ /y/)]')).toMatch(/does not evaluate/);
    expect(scraperJsonPathProblem('$.Tags[?(@.Key=="Name")].Value | [0]')).toMatch(/'\| \[0\]'.*ojg/);
  });
});

describe('validateScraperSpec', () => {
  it('accepts a Mission Control ScrapeConfig made of fields this server runs, inert ones and false full mode', () => {
    expect(() =>
      validateScraperSpec(
        {
          apiVersion: 'configs.flanksource.com/v1',
          kind: 'ScrapeConfig',
          metadata: { name: 'prod' },
          spec: {
            schedule: '@every 30m',
            full: false,
            logLevel: 'debug',
            retention: { changes: [{ name: 'diff', age: '7d', count: 10 }], types: [{ name: 'Kubernetes::Pod', deletedAge: '1h' }] },
            kubernetes: [{ clusterName: 'prod', useCache: true, kubeconfig: { valueFrom: { secretKeyRef: { name: 'k', key: 'c' } } } }],
            kubernetesFile: [{ selector: { kind: 'Pod' }, files: [{ path: ['/srv/scrape/app.yaml'], format: 'yaml' }] }],
            file: [{ ...file, transform: { exclude: [{ jsonpath: '$.status' }] }, paths: ['relative/*.json'] }],
            http: [{ type: 'Api::Status', id: '$.id', connection: 'connection://default/api' }],
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
    expect(refusal({ file: [{ ...file, paths: undefined }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].paths' });
    expect(refusal({ exec: [{ type: 't', id: 'i' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.exec[0].script' });
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

describe('validateScraperSpec as config-db reads a spec (ADR 0072)', () => {
  it('needs neither format nor icon of a file source, and takes a bare type with its class', () => {
    expect(() => validateScraperSpec({ file: [{ type: 'Car', class: 'Car', id: '$.reg_no', paths: ['data/car.json'] }] }, { roots: ROOTS })).not.toThrow();
  });

  it('takes items with or without the leading $, and field JSONPaths starting with @', () => {
    const sql = { connection: 'connection://default/db', type: 'Postgres::Database', id: 'app', query: 'select 1' };
    expect(() => validateScraperSpec({ sql: [{ ...sql, items: '.database' }] }, { roots: ROOTS })).not.toThrow();
    expect(() => validateScraperSpec({ sql: [{ ...sql, items: '$.database' }] }, { roots: ROOTS })).not.toThrow();
    expect(() => validateScraperSpec({ file: [{ ...file, name: '@.metadata.name' }] }, { roots: ROOTS })).not.toThrow();
    expect(refusal({ sql: [{ ...sql, items: '.database[' }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.sql[0].items' });
  });

  it('refuses unknown and refused fields by name, at every level', () => {
    const cases: Array<[unknown, string]> = [
      [{ file: [file], crdSync: true }, 'spec.crdSync'],
      [{ file: [file], kubernetes: [{ clusterName: 'c' }], full: true }, 'spec.full'],
      [{ file: [file], sparkle: 1 }, 'spec.sparkle'],
      [{ file: [{ ...file, path: ['a.json'] }] }, 'spec.file[0].path'],
      [{ file: [{ ...file, connection: 'connection://default/git' }] }, 'spec.file[0].connection'],
      [{ file: [{ ...file, timestampFormat: '2006-01-02' }] }, 'spec.file[0].timestampFormat'],
      [{ file: [{ ...file, format: 'xml' }] }, 'spec.file[0].format'],
      [{ http: [{ type: 't', id: 'i', url: 'https://a.test', format: 'properties' }] }, 'spec.http[0].format'],
      [{ file: [{ ...file, transform: { locations: [] } }] }, 'spec.file[0].transform.locations'],
      [{ file: [{ ...file, transform: { mask: [{ selector: 'true', jsonpath: '.a', hash: 'x' }] } }] }, 'spec.file[0].transform.mask[0].hash'],
      [{ file: [{ ...file, transform: { changes: { mapping: [{ filter: 'true', action: 'move-up' }] } } }] }, 'spec.file[0].transform.changes.mapping[0].action'],
      [{ file: [{ ...file, transform: { relationship: [{ parent: true, name: { value: 'x' } }] } }] }, 'spec.file[0].transform.relationship[0].parent'],
      [{ http: [{ type: 't', id: 'i', url: 'https://a.test', bearer: 'x' }] }, 'spec.http[0].bearer'],
      [{ kubernetes: [{ clusterName: 'c', id: '$.uid' }] }, 'spec.kubernetes[0].id'],
      [{ kubernetes: [{ clusterName: 'c', relationships: [{ kind: { value: 'X' }, owner: { value: 'y' } }] }] }, 'spec.kubernetes[0].relationships[0].owner'],
      [{ kubernetesFile: [{ files: [{ path: ['a.yaml'] }], container: 'postgresql' }] }, 'spec.kubernetesFile[0].container'],
      [{ kubernetes: [{ clusterName: 'c', transform: { expr: 'config' } }] }, 'spec.kubernetes[0].transform.expr'],
      [{ exec: [{ type: 't', id: 'i', script: 'echo []', checkout: { url: 'https://git.test/r', password: 'x' } }] }, 'spec.exec[0].checkout.password'],
    ];
    for (const [spec, details] of cases) expect(refusal(spec), details).toEqual({ code: 'OD_SCRAPER_FIELD', details });
  });

  it("takes a kubernetes source's relationships as duty lookups: one of value, label or CEL over metadata and spec", () => {
    const kube = (relationships: unknown): unknown => ({ kubernetes: [{ clusterName: 'c', relationships }] });
    const claim = { kind: { expr: "has(spec.claimRef) ? spec.claimRef.kind : ''" }, name: { label: 'app' }, namespace: { value: 'shop' } };
    expect(() => validateScraperSpec(kube([claim]), { roots: ROOTS })).not.toThrow();
    expect(refusal(kube([{ kind: { value: 'X', expr: "'Y'" } }]))).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].relationships[0].kind' });
    expect(refusal(kube([{ name: { expr: 'config.name' } }]))).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].relationships[0].name.expr' });
    expect(refusal(kube([{}]))).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.kubernetes[0].relationships[0]' });
  });

  it('accepts full mode for sources that extract items, and refuses a full that is not a boolean', () => {
    expect(() => validateScraperSpec({ file: [file], full: true }, { roots: ROOTS })).not.toThrow();
    expect(refusal({ file: [file], full: 'yes' })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.full' });
  });

  it('refuses CEL that does not compile, and property templates other than a path', () => {
    expect(refusal({ file: [{ ...file, transform: { expr: 'config.map(' } }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].transform.expr' });
    expect(refusal({ file: [{ ...file, transform: { gotemplate: '{{ readFile "/etc/passwd" }}' } }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].transform.gotemplate' });
    expect(refusal({ file: [{ ...file, transform: { gotemplate: '[]', expr: '[]' } }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].transform.gotemplate' });
    expect(() => validateScraperSpec({ file: [{ ...file, transform: { gotemplate: '[{{ range .config }}{"id": "{{ .id }}"}{{ end }}]' } }] }, { roots: ROOTS })).not.toThrow();
    expect(refusal({ file: [{ ...file, transform: { mask: [{ selector: 'jmespath("a", config)', jsonpath: '.a', value: 'x' }] } }] })).toEqual({
      code: 'OD_SCRAPER_SPEC',
      details: 'spec.file[0].transform.mask[0].selector',
    });
    expect(refusal({ file: [{ ...file, properties: [{ name: 'p', text: '{{ .name | upper }}' }] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].properties[0].text' });
    expect(refusal({ file: [{ ...file, transform: { changes: { mapping: [{ filter: 'true', summary: '{{ readFile "/etc/passwd" }}' }] } } }] })).toEqual({
      code: 'OD_SCRAPER_SPEC',
      details: 'spec.file[0].transform.changes.mapping[0].summary',
    });
    expect(refusal({ file: [{ ...file, properties: [{ name: 'p', filter: 'nope == 1' }] }] })).toEqual({ code: 'OD_SCRAPER_SPEC', details: 'spec.file[0].properties[0].filter' });
  });

  it('accepts the transforms config-db documents: exclude, mask, relationship, changes and a CEL script', () => {
    const transform = {
      expr: 'dyn(config).filter(item, item.id <= 10).map(item, {"title": item.title, "id": item.id}).toJSON()',
      exclude: [{ jsonpath: '.password' }, { types: ['Config2'], jsonpath: '$.secret' }],
      mask: [{ selector: "config.name == 'Config1'", jsonpath: '$.password', value: 'md5sum' }],
      relationship: [
        { filter: 'config_type == "Kubernetes::Service"', type: { value: 'Kubernetes::Deployment' }, name: { expr: "has(config.spec) ? config.spec.name : ''" } },
        { filter: "config_type == 'Kubernetes::Pod'", expr: 'config.spec.volumes.map(v, {"name": v.name}).toJSON()' },
      ],
      changes: { mapping: [{ filter: "change_type == 'diff'", type: 'Updated', severity: 'low' }], exclude: ['config_type == "Kubernetes::Node" && details.message == "status.images"'] },
    };
    const properties = [{ filter: 'config_type == "Kubernetes::Pod"', name: 'Logs', icon: 'opensearch', links: [{ text: 'logs', url: 'https://logs.test/?q={{.id}}' }] }];
    const tags = [{ name: 'region', jsonpath: '$.region' }, { name: 'team', value: 'ops' }, { name: 'app', label: 'app' }];
    expect(() => validateScraperSpec({ file: [{ ...file, transform, properties, tags }] }, { roots: ROOTS })).not.toThrow();
  });
});
