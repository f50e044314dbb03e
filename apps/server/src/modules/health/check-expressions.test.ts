import { beforeAll, describe, expect, it } from 'vitest';
import { loadJavaScriptEngine } from '../../platform/javascript/sandboxed-javascript';
import { applyCheckExpressions, MAX_TRANSFORMED_CHECKS, needsBudget, readCheckExpressions, type CheckExpressions, type ExpressionScope, type JudgedResult } from './check-expressions';

const scope = (type = 'exec', name = 'probe'): ExpressionScope => ({
  type,
  canary: { name: 'c', namespace: 'default', labels: {}, id: 'canary-id' },
  check: { name, id: 'check-id', description: 'a probe', labels: {}, endpoint: '' },
});

const passed: JudgedResult = { pass: true, durationMs: 12, message: 'hi there', error: null, details: null };
const execData = (stdout: string, exitCode = 0, stderr = ''): Record<string, unknown> => ({ results: { stdout, stderr, exitCode } });

function expressions(spec: Record<string, unknown>): CheckExpressions {
  const read = readCheckExpressions(spec);
  if ('error' in read) throw new Error(read.error);
  return read;
}

describe('check expressions as canary-checker runs them', () => {
  beforeAll(() => loadJavaScriptEngine());

  describe('reading them from a check spec', () => {
    it('reads test, display and transform written as expr or template', () => {
      const read = expressions({ test: { expr: 'true' }, display: { template: '{{.code}}' }, transform: { expr: '[]' }, markFailOnEmpty: true });
      expect(read).toMatchObject({
        test: { field: 'test', kind: 'expr' },
        display: { field: 'display', kind: 'template' },
        transform: { field: 'transform', kind: 'expr' },
        markFailOnEmpty: true,
      });
    });

    it('names a jsonPath expression as not run by this server instead of skipping it', () => {
      expect(readCheckExpressions({ display: { jsonPath: '$.a' } })).toEqual({ error: 'display.jsonPath is not run by this server; write display.expr (CEL) instead' });
    });

    it('reads javascript before expr, as gomplate picks a script first', () => {
      expect(expressions({ test: { javascript: 'true', expr: 'false' } }).test).toMatchObject({ kind: 'javascript', text: 'true' });
    });

    it('fails a spec whose expression fields have the wrong shape', () => {
      expect(readCheckExpressions({ test: 'results.stdout == "x"' })).toMatchObject({ error: expect.stringContaining('Invalid check spec: test') });
    });
  });

  describe('javascript', () => {
    const http = { code: 200, json: { items: [{ name: 'a', ok: true }, { name: 'b', ok: false }] } };

    it('runs display, test and transform scripts in the sandbox over the result variables', () => {
      const display = applyCheckExpressions(passed, http, expressions({ display: { javascript: '"HTTP " + code + " with " + _.size(json.items) + " items"' } }), scope());
      expect(display.result).toMatchObject({ pass: true, message: 'HTTP 200 with 2 items' });
      const test = applyCheckExpressions(passed, http, expressions({ test: { javascript: '_.every(json.items, function (i) { return i.ok; })' } }), scope());
      expect(test.result).toMatchObject({ pass: false, error: 'test failed' });
      const transform = applyCheckExpressions(
        passed,
        http,
        expressions({ transform: { javascript: 'JSON.stringify(_.map(json.items, function (i) { return { name: i.name, pass: i.ok, message: i.name }; }))' } }),
        scope(),
      );
      expect(transform.transformed?.map((check) => [check.name, check.pass])).toEqual([
        ['a', true],
        ['b', false],
      ]);
    });

    it('fails the check with the script error or its deadline, never as healthy', () => {
      const thrown = applyCheckExpressions(passed, http, expressions({ test: { javascript: 'json.missing.deeper' } }), scope());
      expect(thrown.result.pass).toBe(false);
      expect(thrown.result.error).toMatch(/^test\.javascript: TypeError/);
      const endless = applyCheckExpressions(passed, http, expressions({ display: { javascript: 'while (true) {}' } }), scope(), 60);
      expect(endless.result).toMatchObject({ pass: false, error: 'display.javascript: the script ran past its time limit' });
      const host = applyCheckExpressions(passed, http, expressions({ display: { javascript: 'typeof process + typeof require' } }), scope());
      expect(host.result.message).toBe('undefinedundefined');
    });
  });

  describe('test', () => {
    it('fails an exec check whose test is false with its output, as exec_fail.yaml expects', () => {
      const judged = applyCheckExpressions(passed, execData('hi there'), expressions({ test: { expr: 'results.stdout == "hello"' } }), scope());
      expect(judged.result).toMatchObject({ pass: false, error: 'hi there' });
    });

    it('passes an exec check whose test is true', () => {
      const judged = applyCheckExpressions(passed, execData('hello'), expressions({ test: { expr: 'results.stdout == "hello"' } }), scope());
      expect(judged.result).toEqual(passed);
    });

    it('never turns a failed check into a passing one', () => {
      const failing: JudgedResult = { ...passed, pass: false, error: 'exit code 1: boom' };
      const judged = applyCheckExpressions(failing, execData('', 1, 'boom'), expressions({ test: { expr: 'true' } }), scope());
      expect(judged.result).toMatchObject({ pass: false, error: 'exit code 1: boom' });
    });

    it('says "test failed" for other check types, and adds to an error already there', () => {
      const judged = applyCheckExpressions({ ...passed, pass: false, error: 'slow' }, { code: 200 }, expressions({ test: { expr: 'code == 500' } }), scope('http'));
      expect(judged.result.error).toBe('slow, test failed');
    });

    it('fails a test that does not return a boolean', () => {
      const judged = applyCheckExpressions(passed, { code: 200 }, expressions({ test: { expr: 'code' } }), scope('http'));
      expect(judged.result).toMatchObject({ pass: false, error: 'test expression did not return a boolean value. got 200' });
    });

    it('fails the check with the evaluation error when the test cannot be evaluated, never passes it', () => {
      const judged = applyCheckExpressions(passed, execData('x'), expressions({ test: { expr: 'results.nothing == 1' } }), scope());
      expect(judged.result).toMatchObject({ pass: false, error: 'test.expr: No such key: nothing' });
      const syntax = applyCheckExpressions(passed, execData('x'), expressions({ test: { expr: 'results.stdout ==' } }), scope());
      expect(syntax.result).toMatchObject({ pass: false, error: 'test.expr: Unexpected token: EOF' });
    });

    it('reads a template test as a boolean word', () => {
      const judged = applyCheckExpressions(passed, { code: 500 }, expressions({ test: { template: '{{ .missing }}' } }), scope('http'));
      expect(judged.result.error).toBe('test expression did not return a boolean value. got <no value>');
    });
  });

  describe('display', () => {
    it('replaces the message with the expression, as http_fail.yaml shows', () => {
      const judged = applyCheckExpressions(passed, { code: 200 }, expressions({ display: { expr: 'string(code) + " should be 500"' }, test: { expr: 'code == 500' } }), scope('http'));
      expect(judged.result).toMatchObject({ pass: false, message: '200 should be 500', error: 'test failed' });
    });

    it('renders a Go template over the result variables', () => {
      const judged = applyCheckExpressions(passed, { code: 200 }, expressions({ display: { template: 'code={{.code}}, check={{.check.name}}' } }), scope('http'));
      expect(judged.result.message).toBe('code=200, check=probe');
    });

    it('fails the check when the display cannot be evaluated', () => {
      const judged = applyCheckExpressions(passed, {}, expressions({ display: { template: '{{ .x | humanize }}' } }), scope('http'));
      expect(judged.result).toMatchObject({ pass: false, error: expect.stringContaining("display.template: at character 1: function \"humanize\" not defined ('humanize' is not supported") });
    });

    it('runs range in a display template, as canary-checker does (refused before the playbooks evaluator ran checks)', () => {
      const judged = applyCheckExpressions(passed, { code: 200, items: ['a', 'b'] }, expressions({ display: { template: '{{ range .items }}[{{ . }}]{{ end }}' } }), scope('http'));
      expect(judged.result.message).toBe('[a][b]');
    });

    it('sees the canary and the check it runs for, and the checker result itself', () => {
      const judged = applyCheckExpressions(passed, execData('x'), expressions({ display: { expr: 'canary.name + "/" + check.name + " " + string(pass) + " " + message' } }), scope());
      expect(judged.result.message).toBe('c/probe true hi there');
    });
  });

  describe('transform', () => {
    it('rewrites the check itself from a single unnamed result', () => {
      const judged = applyCheckExpressions(passed, execData('x'), expressions({ transform: { expr: "{'pass': false, 'message': 'rewritten', 'error': 'bad'}.toJSON()" } }), scope());
      expect(judged).toEqual({ result: { ...passed, pass: false, message: 'rewritten', error: 'bad' }, transformed: null, metrics: [] });
    });

    it('fans out into one check per named result, leaving the parent result and skipping its display and test', () => {
      const transform = "results.rows.map(r, {'name': r.job, 'pass': r.up == 1, 'message': r.job + ' is ' + (r.up == 1 ? 'up' : 'down'), 'labels': {'job': r.job}}).toJSON()";
      const data = { results: { rows: [{ job: 'api', up: 1 }, { job: 'db', up: 0 }] } };
      const judged = applyCheckExpressions(passed, data, expressions({ transform: { expr: transform }, test: { expr: 'false' } }), scope('postgres'));
      expect(judged.result).toEqual(passed);
      expect(judged.transformed).toEqual([
        { name: 'api', type: 'postgres', description: 'a probe', icon: null, labels: { job: 'api' }, pass: true, message: 'api is up', error: null, details: null, durationMs: 0 },
        { name: 'db', type: 'postgres', description: 'a probe', icon: null, labels: { job: 'db' }, pass: false, message: 'db is down', error: 'db is down', details: null, durationMs: 0 },
      ]);
    });

    it('accepts a list or map returned without toJSON', () => {
      const judged = applyCheckExpressions(passed, {}, expressions({ transform: { expr: "[{'name': 'a', 'pass': true}]" } }), scope());
      expect(judged.transformed?.map((t) => t.name)).toEqual(['a']);
    });

    it('returns no checks for an empty list, or fails with markFailOnEmpty', () => {
      expect(applyCheckExpressions(passed, {}, expressions({ transform: { expr: '[]' } }), scope())).toEqual({ result: passed, transformed: [], metrics: [] });
      const marked = applyCheckExpressions(passed, {}, expressions({ transform: { expr: '[]' }, markFailOnEmpty: true }), scope());
      expect(marked.result).toMatchObject({ pass: false, error: 'empty result returned from transformation' });
    });

    it('fails the check with the reason when the transform cannot be used', () => {
      const cases: [string, string][] = [
        ['results.missing', 'error transforming result: transform.expr: No such key: missing'],
        ['"not json"', 'error transforming result: the transform did not return JSON'],
        ["[{'message': 'a'}, {'message': 'b'}]", 'error transforming result: the transformation returned more than 1 entry without a name'],
        ["{'name': 'x', 'spec': {'http': []}}", 'error transforming result: the transform returned a canary'],
        ["[{'name': 'x'}, {'name': 'x'}]", "error transforming result: the transform returned two results named 'x'"],
      ];
      for (const [expr, error] of cases) {
        const judged = applyCheckExpressions(passed, { results: {} }, expressions({ transform: { expr } }), scope());
        expect(judged.transformed, expr).toBeNull();
        expect(judged.result.pass, expr).toBe(false);
        expect(judged.result.error, expr).toContain(error);
      }
    });

    it(`refuses more than ${MAX_TRANSFORMED_CHECKS} checks from one transform`, () => {
      const rows = Array.from({ length: MAX_TRANSFORMED_CHECKS + 1 }, (_, i) => ({ job: `j${i}` }));
      const judged = applyCheckExpressions(passed, { results: rows }, expressions({ transform: { expr: "results.map(r, {'name': r.job}).toJSON()" } }), scope());
      expect(judged.result.error).toContain(`at most ${MAX_TRANSFORMED_CHECKS} checks`);
    });

    it('hands on the metrics a transform returns, as metrics-transformed.yaml writes them', () => {
      const rates = { json: { base: 'USD', rates: { GBP: 0.79, EUR: 0.92 } } };
      const expr = "{'metrics': json.rates.keys().map(k, {'name': 'exchange_rate', 'type': 'gauge', 'value': json.rates[k], 'labels': {'from': json.base, 'to': k}})}.toJSON()";
      const judged = applyCheckExpressions(passed, rates, expressions({ transform: { expr } }), scope('http'));
      expect(judged.result.pass).toBe(true);
      expect(judged.metrics).toEqual([
        { name: 'exchange_rate', type: 'gauge', value: 0.79, labels: { from: 'USD', to: 'GBP' } },
        { name: 'exchange_rate', type: 'gauge', value: 0.92, labels: { from: 'USD', to: 'EUR' } },
      ]);
    });

    it('fails the check on a transform metric that is not one, naming it', () => {
      const judged = applyCheckExpressions(passed, {}, expressions({ transform: { expr: "{'metrics': [{'name': 'bad name', 'type': 'gauge', 'value': 1}]}.toJSON()" } }), scope());
      expect(judged.result).toMatchObject({ pass: false, error: expect.stringContaining('transform result 0 metrics[0]: name') });
    });
  });

  describe('metrics', () => {
    const http = { code: 200, json: { rates: { GBP: 0.79 } } };

    it('evaluates value and label expressions over the result, as metrics.yaml writes them', () => {
      const spec = {
        metrics: [
          { name: 'httpbin_count', type: 'counter', value: '1', labels: [{ name: 'check_name', valueExpr: 'check.name' }, { name: 'code', valueExpr: 'code' }] },
          { name: 'exchange_rate', type: 'gauge', value: 'json.rates.GBP', labels: [{ name: 'from', value: 'USD' }] },
          { name: 'probe_duration', type: 'histogram', value: 'duration' },
        ],
      };
      const judged = applyCheckExpressions(passed, http, expressions(spec), scope('http', 'http-minimal-check'));
      expect(judged.result).toEqual(passed);
      expect(judged.metrics).toEqual([
        { name: 'httpbin_count', type: 'counter', value: 1, labels: { check_name: 'http-minimal-check', code: '200' } },
        { name: 'exchange_rate', type: 'gauge', value: 0.79, labels: { from: 'USD' } },
        { name: 'probe_duration', type: 'histogram', value: 12, labels: {} },
      ]);
    });

    it('evaluates metrics of a check that failed its test too, since the failure is what they often count', () => {
      const judged = applyCheckExpressions(passed, http, expressions({ test: { expr: 'code == 500' }, metrics: [{ name: 'up', type: 'gauge', value: 'code == 200 ? 1 : 0' }] }), scope('http'));
      expect(judged.result.pass).toBe(false);
      expect(judged.metrics).toEqual([{ name: 'up', type: 'gauge', value: 1, labels: {} }]);
    });

    it('fails the check, naming the metric, when a value is not a number or cannot be evaluated', () => {
      const text = applyCheckExpressions(passed, http, expressions({ metrics: [{ name: 'm', type: 'gauge', value: "'high'" }] }), scope('http'));
      expect(text.result).toMatchObject({ pass: false, error: 'metrics[0] m: value: high is not a number' });
      const missing = applyCheckExpressions(passed, http, expressions({ metrics: [{ name: 'm', type: 'gauge', value: 'json.nope' }] }), scope('http'));
      expect(missing.result).toMatchObject({ pass: false, error: expect.stringMatching(/^metrics\[0\] m: value: /) });
      expect(missing.metrics).toEqual([]);
    });

    it('refuses at read a metric of a type or name canary-checker would not export', () => {
      expect(readCheckExpressions({ metrics: [{ name: 'm', type: 'summary', value: '1' }] })).toMatchObject({ error: expect.stringContaining('metrics.0.type') });
      expect(readCheckExpressions({ metrics: [{ name: 'opsdeck_check_runs_total', type: 'counter', value: '1' }] })).toMatchObject({ error: expect.stringContaining('metrics.0.name') });
    });
  });

  it('runs under the watchdog only what can take long: big data times big or nested loops, unsized calls, templates', () => {
    const small = { code: 200, results: { stdout: 'done', rows: Array.from({ length: 20 }, (_, i) => ({ i })) } };
    const big = { results: { rows: Array.from({ length: 50_000 }, (_, i) => ({ i, name: `row-${i}` })) } };
    const budget = (spec: Record<string, unknown>, data: Record<string, unknown>): boolean => needsBudget(expressions(spec), data);
    expect(budget({ test: { expr: 'code == 200 && results.stdout.contains("done")' } }, small)).toBe(false);
    expect(budget({ transform: { expr: "results.rows.map(r, {'name': string(r.i)}).toJSON()" } }, small)).toBe(false);
    expect(budget({ transform: { expr: "results.rows.map(r, {'name': string(r.i)}).toJSON()" } }, big)).toBe(true);
    expect(budget({ test: { expr: 'results.rows.all(a, results.rows.exists(b, a.i == b.i))' } }, small)).toBe(false);
    expect(budget({ test: { expr: 'results.rows.all(a, results.rows.exists(b, a.i == b.i))' } }, { results: { rows: big.results.rows.slice(0, 1000) } })).toBe(true);
    for (const expr of ['s.matches("(a+)+$")', '"a".repeat(3) == ""', '"%s".format([1]) == ""', 'cel.bind(x, [1], x.size() == 1)']) {
      expect(budget({ test: { expr } }, small), expr).toBe(true);
    }
    expect(budget({ display: { template: '{{ .code }}' } }, small)).toBe(true);
  });

  it('stops a regular expression that backtracks past the budget', () => {
    const judged = applyCheckExpressions(passed, { results: { stdout: `${'a'.repeat(40)}!` } }, expressions({ test: { expr: 'results.stdout.matches("^(a+)+$")' } }), scope(), 50);
    expect(judged.result).toMatchObject({ pass: false, error: 'the expression ran longer than its budget of 50ms and was stopped' });
  });

  it('fails a check whose expressions run past their time budget instead of holding the worker', () => {
    const list = Array.from({ length: 2000 }, (_, i) => i);
    const started = performance.now();
    const judged = applyCheckExpressions(passed, { results: list }, expressions({ test: { expr: 'results.map(a, results.map(b, results.map(c, a + b + c))).size() > 0' } }), scope(), 50);
    expect(judged.result).toMatchObject({ pass: false, error: 'the expression ran longer than its budget of 50ms and was stopped' });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('cannot reach the server environment, files or other checks: only the result variables exist', () => {
    for (const expr of ['process.env.size() > 0', 'env.PATH != ""', 'require("fs") != null', 'secrets.size() > 0', 'checks.size() > 0']) {
      const judged = applyCheckExpressions(passed, execData('x'), expressions({ test: { expr } }), scope());
      expect(judged.result.pass, expr).toBe(false);
      expect(judged.result.error, expr).toMatch(/Unknown variable|Unexpected|No such|not found|found no matching overload/i);
    }
  });
});
