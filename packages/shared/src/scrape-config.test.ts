import { describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import {
  isRunnableScraperKind,
  RUNNABLE_SCRAPER_KINDS as RUNNABLE,
  scraperSourceFields,
  scraperTransformFields,
  RUNNABLE_SCRAPER_KINDS,
  SCRAPER_KINDS,
  SCRAPER_SCHEDULE_CHOICES,
  scrapeConfigJsonSchema,
  scraperRequiredFields,
} from './scrape-config';

function validate(value: unknown): string[] {
  const validator = new Validator(JSON.parse(JSON.stringify(scrapeConfigJsonSchema)) as Schema, '2020-12', false);
  return validator.validate(value).errors.map((error) => `${error.instanceLocation} ${error.error}`);
}

const missionControlResource = {
  apiVersion: 'configs.flanksource.com/v1',
  kind: 'ScrapeConfig',
  metadata: { name: 'prod', namespace: 'default', labels: { team: 'ops' } },
  spec: {
    schedule: '@every 30m',
    full: true,
    logLevel: 'debug',
    retention: {
      changes: [{ name: 'diff', age: '7d', count: 100 }],
      types: [{ name: 'Kubernetes::Pod', createdAge: '30d', updatedAge: '7d', deletedAge: '1h' }],
    },
    kubernetes: [{ clusterName: 'prod', useCache: true, exclusions: { namespaces: ['kube-system'] }, watch: [{ kind: 'Pod' }] }],
    file: [{ type: '$.kind', id: '$.metadata.uid', paths: ['/srv/manifests/*.yaml'], format: 'yaml', icon: 'kubernetes', transform: { full: true } }],
    http: [{ type: 'Api::Status', id: '$.id', url: 'https://status.example.test/api', pagination: { nextPageExpr: 'x' } }],
  },
};

describe('scrape config JSON schema', () => {
  it('accepts a Mission Control ScrapeConfig resource with fields this server does not use', () => {
    expect(validate(missionControlResource)).toEqual([]);
  });

  it('accepts the bare spec as well as the whole resource', () => {
    expect(validate(missionControlResource.spec)).toEqual([]);
  });

  it('accepts the kinds this server does not run, so the editor can show them', () => {
    expect(validate({ aws: [{ region: ['eu-west-1'] }], githubActions: [{ owner: 'o', repository: 'r' }] })).toEqual([]);
  });

  it('reports the missing required fields of each kind', () => {
    expect(validate({ kubernetes: [{}] }).join('\n')).toContain('clusterName');
    expect(validate({ file: [{ type: 'Car', id: '$.id' }] }).join('\n')).toContain('paths');
    expect(validate({ file: [{ type: 'Car', id: '$.id', paths: ['/a'] }] })).toEqual([]);
    expect(validate({ githubActions: [{ owner: 'o' }] }).join('\n')).toContain('repository');
    expect(validate({ sql: [{ type: 't', id: 'i', query: 'select 1' }] })).not.toEqual([]);
    expect(validate({ sql: [{ type: 't', id: 'i', query: 'select 1', connection: 'connection://default/db' }] })).toEqual([]);
  });

  it('takes a connection in place of the url of an http source', () => {
    expect(validate({ http: [{ type: 't', id: 'i', connection: 'connection://default/api' }] })).toEqual([]);
    expect(validate({ http: [{ type: 't', id: 'i' }] })).not.toEqual([]);
  });

  it('refuses a spec without any source', () => {
    expect(validate({ schedule: '@daily' })).not.toEqual([]);
  });

  it('refuses retention entries without a name', () => {
    expect(validate({ file: [{ format: 'json', icon: 'i' }], retention: { changes: [{ age: '7d' }] } })).not.toEqual([]);
  });
});

describe('scraper kinds', () => {
  it('runs file, http, sql, kubernetes, kubernetesFile and exec, and knows every other kind config-db reads', () => {
    expect(RUNNABLE_SCRAPER_KINDS.every((kind) => (SCRAPER_KINDS as readonly string[]).includes(kind))).toBe(true);
    expect(SCRAPER_KINDS.filter((kind) => !isRunnableScraperKind(kind))).toEqual([
      'azure',
      'trivy',
      'aws',
      'githubActions',
      'azureDevops',
      'custom',
      'gcp',
      'github',
      'postgres',
      'slack',
      'terraform',
      'clickhouse',
      'logs',
      'pubsub',
      'playwright',
    ]);
  });

  it('names the required fields of every kind, and requires neither format nor icon of a file source', () => {
    expect(Object.keys(scraperRequiredFields).sort()).toEqual([...SCRAPER_KINDS].sort());
    expect(scraperRequiredFields.kubernetes.map((field) => field.field)).toEqual(['clusterName']);
    expect(scraperRequiredFields.file.map((field) => field.field)).toEqual(['paths']);
  });

  it('offers the schedule choices of spec 001 with 30 minutes among them', () => {
    expect(SCRAPER_SCHEDULE_CHOICES).toContain('@every 30m');
    expect(SCRAPER_SCHEDULE_CHOICES).toHaveLength(9);
  });
});

describe('scraper field classification', () => {
  it('classifies every field of every runnable kind as runs, inert or refused, with a note', () => {
    for (const kind of RUNNABLE) {
      const fields = scraperSourceFields(kind);
      expect(Object.keys(fields).length).toBeGreaterThan(10);
      for (const rule of Object.values(fields)) {
        expect(['runs', 'inert', 'refused']).toContain(rule.support);
        expect(rule.note.length).toBeGreaterThan(5);
      }
    }
  });

  it('runs CEL, Go-template and sandboxed JavaScript transforms on documents, refuses JSONPath, and runs no script on kubernetes objects', () => {
    expect(scraperTransformFields('file').javascript).toMatchObject({ support: 'runs' });
    expect(scraperTransformFields('file').jsonpath).toMatchObject({ support: 'refused' });
    expect(scraperTransformFields('file').expr).toMatchObject({ support: 'runs' });
    expect(scraperTransformFields('kubernetes').expr).toMatchObject({ support: 'refused' });
    expect(scraperTransformFields('kubernetes').javascript).toMatchObject({ support: 'refused' });
  });

  it('runs the transform, properties, tags and git url of a file source, keeps its icon inert and refuses a connection', () => {
    const fields = scraperSourceFields('file');
    expect(fields.transform?.support).toBe('runs');
    expect(fields.properties?.support).toBe('runs');
    expect(fields.tags?.support).toBe('runs');
    expect(fields.icon?.support).toBe('inert');
    expect(fields.url?.support).toBe('runs');
    expect(fields.connection?.support).toBe('refused');
  });
});
