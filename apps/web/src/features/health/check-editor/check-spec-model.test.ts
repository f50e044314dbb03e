import { describe, expect, it } from 'vitest';
import { checkFormFromSpec, emptyCheckForm, specFromCheckForm, specTemplate, type CheckFormValues } from './check-spec-model';

/** The keys the server's elasticsearch and alertmanager check schemas read (apps/server canary-spec.ts). */
const SERVER_KEYS = {
  elasticsearch: ['name', 'icon', 'description', 'url', 'connection', 'index', 'query', 'results', 'thresholdMillis', 'authentication'],
  alertmanager: ['name', 'icon', 'description', 'url', 'connection', 'alerts', 'ignore', 'filters', 'exclude_filters', 'thresholdMillis'],
} as const;

function filledForm(type: 'elasticsearch' | 'alertmanager', fields: CheckFormValues['fields']): CheckFormValues {
  const empty = emptyCheckForm(type);
  return { ...empty, name: 'search', schedule: '@every 5m', fields: { ...empty.fields, ...fields } };
}

function onlyEntry(spec: Record<string, unknown>, type: string): Record<string, unknown> {
  const list = spec[type];
  if (!Array.isArray(list) || list.length !== 1) throw new Error(`expected one ${type} check`);
  return list[0] as Record<string, unknown>;
}

describe('elasticsearch and alertmanager check forms', () => {
  it('writes an elasticsearch form as the entry the server schema reads, with the query kept as JSON text', () => {
    const values = filledForm('elasticsearch', {
      url: 'https://es:9200',
      index: 'logs-*',
      query: '{"term":{"level":"error"}}',
      results: 0,
      thresholdMillis: 500,
      authentication_username: 'elastic',
      authentication_password: 'pw',
    });
    const spec = specFromCheckForm(values);
    expect(spec).toEqual({
      schedule: '@every 5m',
      elasticsearch: [
        {
          name: 'search',
          url: 'https://es:9200',
          index: 'logs-*',
          query: '{"term":{"level":"error"}}',
          results: 0,
          thresholdMillis: 500,
          authentication: { username: 'elastic', password: 'pw' },
        },
      ],
    });
    expect(SERVER_KEYS.elasticsearch).toEqual(expect.arrayContaining(Object.keys(onlyEntry(spec, 'elasticsearch'))));
    expect(checkFormFromSpec(spec)).toEqual(values);
  });

  it('leaves out an empty query and results, so the server counts every document and accepts any count', () => {
    const entry = onlyEntry(specFromCheckForm(filledForm('elasticsearch', { url: 'http://es', index: 'logs' })), 'elasticsearch');
    expect(entry).toEqual({ name: 'search', url: 'http://es', index: 'logs' });
  });

  it('writes an alertmanager form with the alert and ignore lists split into names', () => {
    const values = filledForm('alertmanager', { url: 'http://alertmanager:9093', alerts: 'KubePod.*, TargetDown', ignore: 'Watchdog' });
    const spec = specFromCheckForm(values);
    const entry = onlyEntry(spec, 'alertmanager');
    expect(entry).toEqual({ name: 'search', url: 'http://alertmanager:9093', alerts: ['KubePod.*', 'TargetDown'], ignore: ['Watchdog'] });
    expect(SERVER_KEYS.alertmanager).toEqual(expect.arrayContaining(Object.keys(entry)));
    expect(checkFormFromSpec(spec)).toEqual(values);
  });

  it('leaves out empty alert lists, which the server reads as every alert and none ignored', () => {
    expect(onlyEntry(specFromCheckForm(filledForm('alertmanager', { url: 'http://am' })), 'alertmanager')).toEqual({ name: 'search', url: 'http://am' });
  });
});

describe('stored secrets in check forms', () => {
  const envelope = { $encrypted: 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=' };
  const storedHttp = {
    schedule: '@every 1m',
    http: [{ name: 'api', url: 'https://api.example.com', authentication: { username: 'ada', password: envelope } }],
  };

  it('holds a stored password envelope in the form and writes it back unchanged when the field is untouched', () => {
    const form = checkFormFromSpec(storedHttp);
    expect(form?.fields.authentication_password).toEqual(envelope);
    expect(form?.fields.authentication_username).toBe('ada');
    if (form === null) throw new Error('the http spec should open in the form');
    expect(specFromCheckForm(form)).toEqual({ ...storedHttp, http: [{ ...storedHttp.http[0], method: 'GET' }] });
  });

  it('writes the new value when a password replaces the stored one', () => {
    const form = checkFormFromSpec({ redis: [{ name: 'cache', addr: 'redis:6379', password: envelope }] });
    if (form === null) throw new Error('the redis spec should open in the form');
    const spec = specFromCheckForm({ ...form, fields: { ...form.fields, password: 'typed-anew' } });
    expect(spec).toEqual({ redis: [{ name: 'cache', addr: 'redis:6379', db: 0, password: 'typed-anew' }] });
  });

  it('leaves the password out when the stored one was removed', () => {
    const form = checkFormFromSpec({ redis: [{ name: 'cache', addr: 'redis:6379', password: envelope }] });
    if (form === null) throw new Error('the redis spec should open in the form');
    expect(specFromCheckForm({ ...form, fields: { ...form.fields, password: '' } })).toEqual({ redis: [{ name: 'cache', addr: 'redis:6379', db: 0 }] });
  });

  it('shows a password written as {value} as its text', () => {
    const form = checkFormFromSpec({ redis: [{ name: 'cache', addr: 'redis:6379', password: { value: 'plain' } }] });
    expect(form?.fields.password).toBe('plain');
  });

  it('leaves a check whose password comes from valueFrom to the YAML editor, which keeps the reference', () => {
    const password = { valueFrom: { secretKeyRef: { name: 'cache-credentials', key: 'password' } } };
    expect(checkFormFromSpec({ redis: [{ name: 'cache', addr: 'redis:6379', password }] })).toBeNull();
    expect(checkFormFromSpec({ http: [{ name: 'web', url: 'https://a.example', authentication: { username: 'ada', password } }] })).toBeNull();
  });
});

describe('YAML starting points', () => {
  it('starts SFTP and S3 as folder checks reading through a connection, since folder checks are what runs them', () => {
    expect(specTemplate('sftp', '')).toEqual({ schedule: '@every 5m', folder: [expect.objectContaining({ path: '/backups', sftpConnection: { connection: 'connection://default/sftp-server' } })] });
    expect(specTemplate('s3', '@hourly')).toEqual({ schedule: '@hourly', folder: [expect.objectContaining({ path: 's3://bucket/prefix/', awsConnection: expect.objectContaining({ region: 'us-east-1' }) })] });
    expect(specTemplate('ldap', '')).toEqual({ schedule: '@every 5m', ldap: [{ name: '' }] });
  });
});
