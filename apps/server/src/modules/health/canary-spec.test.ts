import { describe, expect, it } from 'vitest';
import { CANARY_FIELD_RULES, CHECK_FIELD_RULES, CHECK_TYPES, CHECK_TYPES_NOT_RUN, JUNIT_MODE_REFUSED, MINIMAL_CHECKS, placeAt, placeExample, valueAtPath } from '@opsdeck/shared';
import { canarySpecRefusal, CanarySpecError, checksFromCanarySpec, isJunitReportSpec, junitReportChecks, parseCanaryYaml, parseCheckSpec } from './canary-spec';

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

function refusalOf(spec: Record<string, unknown>): CanarySpecError {
  try {
    checksFromCanarySpec(spec);
  } catch (error) {
    if (error instanceof CanarySpecError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(spec)} to be refused`);
}

const fieldCases = CHECK_TYPES.flatMap((type) => Object.entries(CHECK_FIELD_RULES[type]).map(([path, rule]) => ({ type, path, rule })));

describe('every field of the check catalogue, as a save meets it', () => {
  it.each(fieldCases.filter(({ rule }) => rule.verdict !== 'refused'))('accepts $type.$path ($rule.verdict) and keeps it in the stored check spec', ({ type, path, rule }) => {
    const example = 'example' in rule ? rule.example : undefined;
    const [check] = checksFromCanarySpec({ schedule: '@every 5m', [type]: [placeExample(MINIMAL_CHECKS[type], path, rule)] });
    expect(check?.type).toBe(type);
    expect(valueAtPath(check?.spec, path)).toEqual(example);
  });

  it.each(fieldCases.filter(({ rule }) => rule.verdict === 'refused'))('refuses $type.$path with OD_CHECK_FIELD_NOT_RUN naming it', ({ type, path, rule }) => {
    const error = refusalOf({ [type]: [placeAt(MINIMAL_CHECKS[type], path, 'x')] });
    const concrete = `${type}[0].${path.replaceAll('[]', '[0]')}`.replace(/\[0\]$/, '');
    expect(error.detailed).toContainEqual({ kind: 'field-not-run', path: concrete, message: `not run by this server. ${rule.note}` });
    expect(canarySpecRefusal(error)).toMatchObject({ statusCode: 400, code: 'OD_CHECK_FIELD_NOT_RUN' });
    expect(canarySpecRefusal(error).message).toContain(concrete);
  });
});

describe('canary-level keys and check types the server does not run', () => {
  it.each(Object.entries(CANARY_FIELD_RULES))('judges the canary key %s as the catalogue says', (key, rule) => {
    const value = rule.verdict === 'refused' ? 1 : rule.example;
    const spec = { [key]: value, tcp: [MINIMAL_CHECKS.tcp] };
    if (rule.verdict !== 'refused') {
      expect(checksFromCanarySpec(spec)).toHaveLength(1);
      return;
    }
    const error = refusalOf(spec);
    expect(error.detailed).toContainEqual({ kind: 'field-not-run', path: key, message: `not run by this server. ${rule.note}` });
    expect(canarySpecRefusal(error).code).toBe('OD_CHECK_FIELD_NOT_RUN');
  });

  it.each(Object.keys(CHECK_TYPES_NOT_RUN))('refuses a canary with %s checks with OD_CHECK_TYPE_NOT_RUN, listing the types that run', (type) => {
    const error = refusalOf({ [type]: [{ name: 'x' }], http: [{ ...MINIMAL_CHECKS.http, retries: 2 }] });
    const refusal = canarySpecRefusal(error);
    expect(refusal).toMatchObject({ statusCode: 400, code: 'OD_CHECK_TYPE_NOT_RUN' });
    expect(refusal.message).toBe(`This server does not run ${type} checks; it runs ${CHECK_TYPES.join(', ')}`);
    // The field refusal of the same spec is listed too, so one save shows every problem.
    expect(refusal.details).toContain('http[0].retries: not run by this server');
  });

  it('refuses a key that is neither a field nor a check type of canary-checker as an invalid spec', () => {
    const refusal = canarySpecRefusal(refusalOf({ tcp: [{ ...MINIMAL_CHECKS.tcp, endpont: 'typo:1' }], smtp: [] }));
    expect(refusal.code).toBe('OD_CANARY_SPEC');
    expect(refusal.details).toContain('tcp[0].endpont: is not a field of tcp checks');
    expect(refusal.details).toContain('smtp: check type is not supported');
  });

  it('refuses a schedule that is no cron, naming the field', () => {
    const refusal = canarySpecRefusal(refusalOf({ schedule: '8 46 *', tcp: [MINIMAL_CHECKS.tcp] }));
    expect(refusal).toMatchObject({ code: 'OD_CANARY_SPEC', details: expect.stringMatching(/^schedule: '8 46 \*' is not a valid schedule/) as unknown });
  });

  it('reads a whole Mission Control resource and reports refused fields inside nested lists by index', () => {
    const error = refusalOf({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'web' },
      spec: { http: [{ ...MINIMAL_CHECKS.http, headers: [{ name: 'A', value: 'b' }, { name: 'Token', valueFrom: { serviceAccount: 'default' } }] }] },
    });
    expect(error.detailed.map((issue) => issue.path)).toEqual(['http[0].headers[1].valueFrom.serviceAccount']);
  });

  it('reports a reference it has no source for once, as refused, not also the value it leaves empty', () => {
    const reference = { valueFrom: { helmRef: { name: 'db', key: '.password' } } };
    const error = refusalOf({ postgres: [{ ...MINIMAL_CHECKS.postgres, username: reference, password: reference }] });
    expect(error.detailed.map((issue) => `${issue.kind} ${issue.path}`)).toEqual([
      'field-not-run postgres[0].username.valueFrom.helmRef',
      'field-not-run postgres[0].password.valueFrom.helmRef',
    ]);
  });

  it('accepts secret and config map references wherever canary-checker takes them, and only in a well-formed shape', () => {
    const secret = { valueFrom: { secretKeyRef: { name: 'db', key: 'PASSWORD' } } };
    const plain = { valueFrom: { configMapKeyRef: { name: 'db', key: 'ca.crt' } } };
    const checks = checksFromCanarySpec({
      http: [{ ...MINIMAL_CHECKS.http, username: secret, password: secret, headers: [{ name: 'X-Token', ...secret }], env: [{ name: 'host', ...plain }], tlsConfig: { ca: plain } }],
      postgres: [{ ...MINIMAL_CHECKS.postgres, username: secret, password: secret }],
      redis: [{ ...MINIMAL_CHECKS.redis, tlsConfig: { ca: plain, cert: plain, key: secret } }],
    });
    expect(checks.map((check) => check.type)).toEqual(['http', 'postgres', 'redis']);
    expect(checks[0]?.spec.headers).toEqual([{ name: 'X-Token', ...secret }]);
    const both = { valueFrom: { secretKeyRef: { name: 'db', key: 'a' }, configMapKeyRef: { name: 'db', key: 'b' } } };
    expect(refusalOf({ http: [{ ...MINIMAL_CHECKS.http, password: both }] }).detailed.map((issue) => issue.kind)).toEqual(['invalid']);
    expect(refusalOf({ http: [{ ...MINIMAL_CHECKS.http, headers: [{ name: 'X', value: 'a', ...secret }] }] }).detailed.map((issue) => issue.path)).toEqual(['http[0].headers[0].value']);
  });

  it('still refuses a reference in an exec environment, which a script could send anywhere', () => {
    const error = refusalOf({ exec: [{ ...MINIMAL_CHECKS.exec, env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'db', key: 'token' } } }] }] });
    expect(error.detailed.map((issue) => `${issue.kind} ${issue.path}`)).toEqual(['field-not-run exec[0].env[0].valueFrom']);
  });

  it('judges the expression fields key by key: CEL and sandboxed JavaScript run, jsonPath is refused', () => {
    const [check] = checksFromCanarySpec({ exec: [{ ...MINIMAL_CHECKS.exec, test: { expr: 'results.stdout == "hello"' }, display: { javascript: 'results.stdout' } }] });
    expect(check?.spec.test).toEqual({ expr: 'results.stdout == "hello"' });
    expect(check?.spec.display).toEqual({ javascript: 'results.stdout' });
    const error = refusalOf({ exec: [{ ...MINIMAL_CHECKS.exec, test: { expr: 'true', jsonPath: '$.a' } }] });
    expect(error.issues).toEqual([`exec[0].test.jsonPath: not run by this server. ${CHECK_FIELD_RULES.exec['test.jsonPath']?.note ?? ''}`]);
  });
});

/** canary-checker's fixtures/minimal/http_pass_results_mode_pass.yaml, as published. */
const RESULT_MODE_FIXTURE = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: http-pass
spec:
  resultMode: "junit"
  schedule: "@every 5m"
  http:
    - url: https://httpbin.flanksource.com/status/200
      name: http pass response 200 status code
      thresholdMillis: 30000
      responseCodes: [201, 301, 200]
      responseContent: ""
      maxSSLExpiry: 7
      description: "HTTP dummy test 2"
    - url: https://httpbin.flanksource.com/status/201
      name: http pass response 201 status code
      thresholdMillis: 30000
      responseCodes: [201]
      responseContent: ""
      maxSSLExpiry: 7
      description: "second http check here"
`;

describe('a canary with resultMode junit', () => {
  const junitSpec = {
    resultMode: 'junit',
    schedule: '@every 5m',
    labels: { team: 'web' },
    http: [{ ...MINIMAL_CHECKS.http, name: 'home' }, { ...MINIMAL_CHECKS.http, name: 'api', dependsOn: ['ping'] }],
    tcp: [{ ...MINIMAL_CHECKS.tcp, name: 'ping' }],
  };

  it('yields one junit row named after the canary, whose spec is its check lists with resultMode junit', () => {
    const rows = checksFromCanarySpec(junitSpec, { canaryName: 'storefront' });
    expect(rows).toEqual([
      {
        type: 'junit',
        name: 'storefront',
        description: 'Result Mode: JUnit Report',
        icon: null,
        endpoint: null,
        owner: null,
        severity: null,
        labels: {},
        spec: { resultMode: 'junit', http: junitSpec.http, tcp: junitSpec.tcp },
      },
    ]);
    expect(isJunitReportSpec(rows[0]?.spec)).toBe(true);
  });

  it("turns canary-checker's published result-mode fixture into one row named after its metadata", () => {
    const rows = checksFromCanarySpec(parseCanaryYaml(RESULT_MODE_FIXTURE), { canaryName: 'http-pass' });
    expect(rows.map((row) => `${row.type}/${row.name}`)).toEqual(['junit/http-pass']);
    expect(junitReportChecks(rows[0]?.spec).map((check) => check.name)).toEqual(['http pass response 200 status code', 'http pass response 201 status code']);
    // Without a canary name, a kind: Canary resource names the row by its metadata.
    const [fromResource] = checksFromCanarySpec({ kind: 'Canary', metadata: { name: 'http-pass' }, spec: parseCanaryYaml(RESULT_MODE_FIXTURE) });
    expect(fromResource?.name).toBe('http-pass');
  });

  it('reads the checks of a junit row back as the save judged them, and refuses a row spec without resultMode junit', () => {
    const [row] = checksFromCanarySpec(junitSpec, { canaryName: 'storefront' });
    expect(junitReportChecks(row?.spec).map((check) => `${check.type}/${check.name}`)).toEqual(['http/home', 'http/api', 'tcp/ping']);
    expect(() => junitReportChecks({ http: junitSpec.http })).toThrow(/resultMode: a junit check's spec must have resultMode: junit/);
    // A row written past the save rules fails by them: a refused field inside is refused as at save.
    expect(() => junitReportChecks({ resultMode: 'junit', http: [{ ...MINIMAL_CHECKS.http, retries: 2 }] })).toThrow(/http\[0\]\.retries: not run by this server/);
  });

  it('reports a result per check when resultMode is empty, as canary-checker does', () => {
    expect(checksFromCanarySpec({ ...junitSpec, resultMode: '' }).map((check) => `${check.type}/${check.name}`)).toEqual(['http/home', 'http/api', 'tcp/ping']);
  });

  it('has no row when the canary lists no checks, as a canary without checks has none', () => {
    expect(checksFromCanarySpec({ resultMode: 'junit', schedule: '@every 5m' }, { canaryName: 'empty' })).toEqual([]);
  });

  it('refuses a result mode canary-checker does not have with OD_CANARY_SPEC naming the field and the value', () => {
    const refusal = canarySpecRefusal(refusalOf({ resultMode: 'xml', tcp: [MINIMAL_CHECKS.tcp] }));
    expect(refusal).toMatchObject({ statusCode: 400, code: 'OD_CANARY_SPEC' });
    expect(refusal.details).toBe("resultMode: 'xml' is not a result mode: write junit (the checks reported as one combined result) or leave it out (a result per check)");
  });

  it.each(JUNIT_MODE_REFUSED.flatMap(({ field, types, note }) => (types === 'every' ? CHECK_TYPES : types).map((type) => ({ type, field, note }))))(
    'refuses $type.$field beside resultMode junit with OD_CHECK_FIELD_NOT_RUN naming it, and accepts it without',
    ({ type, field, note }) => {
      const rule = CHECK_FIELD_RULES[type][field];
      if (rule === undefined || rule.verdict === 'refused') throw new Error(`${type}.${field} must run in a canary of its own`);
      const entry = placeExample(MINIMAL_CHECKS[type], field, rule);
      expect(checksFromCanarySpec({ [type]: [entry] })).toHaveLength(1);
      const error = refusalOf({ resultMode: 'junit', [type]: [entry] });
      expect(error.detailed).toEqual([{ kind: 'field-not-run', path: `${type}[0].${field}`, message: `not run with resultMode: junit. ${note}` }]);
      const refusal = canarySpecRefusal(error);
      expect(refusal).toMatchObject({ statusCode: 400, code: 'OD_CHECK_FIELD_NOT_RUN' });
      expect(refusal.message).toContain(`${type}[0].${field}`);
    },
  );

  it('still judges every check of a junit canary as without it: refused fields and types not run are refused', () => {
    const error = refusalOf({ resultMode: 'junit', http: [{ ...MINIMAL_CHECKS.http, retries: 1 }], junit: [{ name: 'pod' }] });
    expect(error.detailed.map((issue) => `${issue.kind} ${issue.path}`)).toEqual(['field-not-run http[0].retries', 'type-not-run junit']);
  });
});
