import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment';
import { durationFromNanos } from './cel-functions';
import { celToText, fromCel, toCel } from './cel-values';

const environment = createCelEnvironment({ unlistedVariablesAreDyn: true });

function run(expression: string, variables: Record<string, unknown> = {}): unknown {
  return fromCel(environment.evaluate(expression, toCel(variables) as Record<string, unknown>));
}

describe('the server CEL function library', () => {
  describe('strings', () => {
    it.each([
      ['"hello world".trimPrefix("hello ")', 'world'],
      ['"hello world".trimSuffix(" world")', 'hello'],
      ['"hello hello".replace("he", "we")', 'wello wello'],
      ['"hello hello".replace("he", "we", 1)', 'wello hello'],
      ['"I have an apple".replaceAll("apple", "orange")', 'I have an orange'],
      ['"%s/%s -> %d".format(["ns", "pod", 3])', 'ns/pod -> 3'],
      ['"%.2f%%".format([12.345])', '12.35%'],
      ['"hello".charAt(4)', 'o'],
      ['"ab".repeat(3)', 'ababab'],
      ['"hello world".title()', 'Hello World'],
      ['"gums".reverse()', 'smug'],
      ['"héllo".runeCount()', 5],
      ['"it\'s".squote()', "'it''s'"],
      ['"a b".shellQuote()', "'a b'"],
      ['\'{"a": {"b": 2}}\'.JSON().a.b', 2],
      ['\'[1, 2]\'.JSONArray().size()', 2],
      ['"TacoCat".lowerAscii()', 'tacocat'],
    ])('%s is %j', (expression, expected) => {
      expect(run(expression)).toEqual(expected);
    });

    it('refuses to build a string longer than a mebibyte', () => {
      expect(() => run('"x".repeat(2000000)')).toThrow(/longer than/);
    });

    it('fails on text that is not JSON instead of returning nothing', () => {
      expect(() => run('"{not json".JSON()')).toThrow(/not JSON/);
    });
  });

  describe('lists and maps', () => {
    it.each([
      ['["a", "b", "c", "d"].slice(1, 3)', ['b', 'c']],
      ['[[1, 2], [3, [4]]].flatten()', [1, 2, 3, 4]],
      ['[3, 1, 2].sort()', [1, 2, 3]],
      ['["b", "a"].sort()', ['a', 'b']],
      ['[1, 2, 2, 3].distinct()', [1, 2, 3]],
      ['["a", "b", "b"].uniq()', ['a', 'b']],
      ['[1, 2, 3].reverse()', [3, 2, 1]],
      ['{"first": "John", "last": "Doe"}.keys()', ['first', 'last']],
      ['{"a": 1, "b": 2}.values()', [1, 2]],
      ['{"first": "John"}.merge({"last": "Doe"})', { first: 'John', last: 'Doe' }],
      ['{"first": "John", "last": "Doe"}.omit(["first"])', { last: 'Doe' }],
      ['{"first": "John", "last": "Doe"}.pick(["first"])', { first: 'John' }],
    ])('%s is %j', (expression, expected) => {
      expect(run(expression)).toEqual(expected);
    });

    it('refuses a slice outside the list', () => {
      expect(() => run('[1, 2].slice(1, 5)')).toThrow(/out of range/);
    });
  });

  describe('JSON', () => {
    it('writes lists, maps and scalars as JSON with ints as numbers', () => {
      expect(run('[{"name": "x", "pass": true, "n": 1}].toJSON()')).toBe('[{"name":"x","pass":true,"n":1}]');
      expect(run('{"a": [1, "b"]}.toJSON()')).toBe('{"a":[1,"b"]}');
      expect(run('"x".toJSON()')).toBe('"x"');
      expect(run('toJSON(results)', { results: { count: 2 } })).toBe('{"count":2}');
      expect(run('{"a": 1}.toJSONPretty("  ")')).toBe('{\n  "a": 1\n}');
    });
  });

  describe('Kubernetes health', () => {
    const deployment = (ready: number) => ({ kind: 'Deployment', spec: { replicas: 2 }, status: { replicas: 2, readyReplicas: ready, availableReplicas: ready } });

    it('judges an object, or a kubernetes check result wrapping one, as the catalog judges it', () => {
      expect(run('k8s.isHealthy(o)', { o: deployment(2) })).toBe(true);
      expect(run('k8s.isHealthy(o)', { o: { Object: deployment(2) } })).toBe(true);
      expect(run('k8s.isReady(o)', { o: deployment(1) })).toBe(false);
      expect(run('k8s.isHealthy(o)', { o: deployment(1) })).toBe(false);
      expect(run('k8s.getHealth(o).health', { o: deployment(2) })).toBe('healthy');
      expect(run('k8s.getStatus(o)', { o: { kind: 'Pod', status: { phase: 'Succeeded' } } })).toBe(run('k8s.getHealth(o).status', { o: { kind: 'Pod', status: { phase: 'Succeeded' } } }));
    });
  });

  describe('durations and time', () => {
    it('reads durations with days and compares them with the result variables', () => {
      expect(run('Duration("7d") == duration("168h")')).toBe(true);
      expect(run('code in [200, 201, 301] && sslAge > Duration("7d")', { code: 200, sslAge: durationFromNanos(30 * 86_400e9) })).toBe(true);
      expect(run('time.ParseDuration("1h30m").getMinutes()')).toBe(90);
      expect(() => run('Duration("soon")')).toThrow(/not a duration/);
    });

    it("converts timestamps and durations to text as cel-go prints them, which stateful checks store and read back", () => {
      expect(run('string(timestamp("2026-01-02T03:04:05Z"))')).toBe('2026-01-02T03:04:05Z');
      expect(run('string(timestamp("2026-01-02T03:04:05.250Z"))')).toBe('2026-01-02T03:04:05.250Z');
      expect(run('string(duration("1h30m"))')).toBe('5400s');
      expect(run('string(duration("1.5s"))')).toBe('1.5s');
    });

    it('measures time since and until a timestamp', () => {
      expect(run('time.Since(timestamp("2020-01-01T00:00:00Z")) > Duration("365d")')).toBe(true);
      expect(run('time.Until(time.Now() + duration("1h")) <= duration("1h")')).toBe(true);
      expect(run('time.Since("2020-01-01T00:00:00Z") > duration("1h")')).toBe(true);
      expect(() => run('time.Since("yesterday")')).toThrow(/not a timestamp/);
    });

    it('writes durations and sizes for people', () => {
      expect(run('HumanDuration(Duration("1h1m"))')).toBe('1h1m');
      expect(run('HumanDuration(Duration("50h10m"))')).toBe('2d2h10m');
      expect(run('HumanDuration(Duration("250ms"))')).toBe('250ms');
      expect(run('HumanDuration(3600)')).toBe('3.6µs');
      expect(run('HumanSize(1048576)')).toBe('1M');
      expect(run('HumanSize(1536)')).toBe('1.5K');
      expect(run('HumanSize(0)')).toBe('0B');
    });
  });

  describe('semantic versions', () => {
    it.each([
      ['SemverCompare("1.2.3", "1.2.4")', false],
      ['SemverCompare(">=1.2.0", "1.2.4")', true],
      ['SemverCompare("~1.2", "1.2.9")', true],
      ['SemverCompare("~1.2", "1.3.0")', false],
      ['SemverCompare("^1.2.0", "1.9.0")', true],
      ['SemverCompare("^0.2.0", "0.3.0")', false],
      ['SemverCompare("1.x", "1.5.0")', true],
      ['SemverCompare(">1.0 <2.0", "1.5.0")', true],
      ['SemverCompare("<1.0 || >=3.0", "2.0.0")', false],
      ['SemverCompare("1.0 - 1.4", "1.4.9")', true],
      ['SemverCompare(">=1.0.0", "1.1.0-beta.1")', false],
      ['SemverCompare(">=1.0.0-alpha", "1.1.0-beta.1")', true],
    ])('%s is %s', (expression, expected) => {
      expect(run(expression)).toBe(expected);
    });

    it('fails on a version that is not semantic', () => {
      expect(() => run('SemverCompare(">=1", "latest")')).toThrow(/not a semantic version/);
    });
  });

  describe('hashes, uuids and base64', () => {
    it('hashes text in hex', () => {
      expect(run('crypto.SHA1("hello")')).toBe('aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
      expect(run('crypto.SHA256("hello")')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
      expect(String(run('crypto.SHA512("hello")'))).toHaveLength(128);
    });

    it('makes and recognises uuids', () => {
      expect(run('uuid.IsValid(uuid.V4())')).toBe(true);
      expect(run('uuid.V4() != uuid.V4()')).toBe(true);
      expect(run('uuid.IsValid("nope")')).toBe(false);
      expect(run('uuid.Nil()')).toBe('00000000-0000-0000-0000-000000000000');
    });

    it('encodes and decodes base64', () => {
      expect(run('base64.Encode("hello")')).toBe('aGVsbG8=');
      expect(run('base64.Decode("aGVsbG8=")')).toBe('hello');
    });
  });

  describe('optional fields', () => {
    it('reads a missing field as the fallback given to orValue', () => {
      expect(run('results.?files.orValue([]).size()', { results: {} })).toBe(0);
      expect(run('results.?files.orValue([]).map(i, i.name).join(", ")', { results: { files: [{ name: 'a' }, { name: 'b' }] } })).toBe('a, b');
      expect(run('json.?aggregations.logs.doc_count.orValue(0) > 0', { json: {} })).toBe(false);
    });
  });

  it("runs gomplate's jq over a value, as config-db's change rules call it", () => {
    const patch = { status: { conditions: [{ type: 'Healthy', message: 'Health check passed' }] } };
    expect(run(`jq('.status.conditions[]? | select(.type == "Healthy").message', patch).contains('Health check passed')`, { patch })).toBe(true);
    expect(run(`jq('.status.conditions[0].type', patch)`, { patch })).toBe('Healthy');
    expect(() => run(`jq('.a | length', patch)`, { patch: {} })).toThrow(/not supported by this server/);
  });

  it('gives whole numbers to expressions as ints, so they compare and add as in canary-checker', () => {
    expect(run('code == 200 && code + 1 == 201 && string(code) == "200"', { code: 200 })).toBe(true);
    expect(celToText(environment.evaluate('1.5'))).toBe('1.5');
  });
});
