import { describe, expect, it } from 'vitest';
import { schemaCheck, textDiagnostics, type JsonSchema } from './text-diagnostics';

const SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    schedule: { type: 'string' },
    http: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, threshold: { type: 'integer', minimum: 0 }, target: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};
const check = schemaCheck(SCHEMA);

/** The text each diagnostic underlines, with its message. */
function underlined(text: string, language: 'yaml' | 'json' = 'yaml') {
  return textDiagnostics(text, language, check).map(({ from, to, message }) => ({ text: text.slice(from, to), message }));
}

describe('textDiagnostics', () => {
  it('finds nothing wrong in a text the schema accepts, in YAML or JSON', () => {
    expect(underlined('schedule: "@every 30s"\nhttp:\n  - name: shop\n    threshold: 5\n')).toEqual([]);
    expect(underlined('{"http": [{"name": "shop", "target": 3}]}', 'json')).toEqual([]);
  });

  it('finds nothing in a blank text, which stands for no value', () => {
    expect(textDiagnostics('  \n', 'yaml', check)).toEqual([]);
    expect(textDiagnostics('', 'json', check)).toEqual([]);
  });

  it('underlines a value of the wrong type or out of range', () => {
    expect(underlined('http:\n  - name: shop\n    threshold: -1\n')).toEqual([{ text: '-1', message: '-1 is less than 0.' }]);
    expect(underlined('schedule: 5\n')).toEqual([{ text: '5', message: expect.stringMatching(/type/) }]);
  });

  it('underlines an unknown property by its key', () => {
    expect(underlined('http:\n  - name: shop\n    treshold: 5\n')).toEqual([{ text: 'treshold', message: 'Unknown property "treshold".' }]);
    expect(underlined('{"schedul": "1m"}', 'json')).toEqual([{ text: '"schedul"', message: 'Unknown property "schedul".' }]);
  });

  it('names a missing required property on the first line of the object that lacks it', () => {
    expect(underlined('http:\n  - threshold: 5\n')).toEqual([{ text: 'threshold: 5', message: 'Missing required property "name".' }]);
  });

  it('reports a failed choice of alternatives once, not once per alternative, on the key of a list value', () => {
    const problems = underlined('http:\n  - name: shop\n    target: [1]\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.text).toBe('target');
  });

  it('reports a YAML syntax error where it is, and no schema problems until it is fixed', () => {
    const problems = underlined('http:\n  - name: "shop\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/quote|end|Missing/i);
  });

  it('reports invalid JSON in JSON mode, inside the text', () => {
    const text = '{"http": [}';
    const [problem] = textDiagnostics(text, 'json', check);
    expect(problem?.severity).toBe('error');
    expect(problem?.from).toBeGreaterThanOrEqual(0);
    expect(problem?.to).toBeLessThanOrEqual(text.length);
  });

  it('checks syntax only when no schema is given', () => {
    expect(textDiagnostics('anything: [1, 2]\n', 'yaml')).toEqual([]);
    expect(textDiagnostics('a: [1, 2\n', 'yaml')).not.toEqual([]);
  });

  it('leaves the schema it is given unchanged', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'number' } } };
    const before = JSON.stringify(schema);
    expect(textDiagnostics('a: x\n', 'yaml', schemaCheck(schema))).toHaveLength(1);
    expect(JSON.stringify(schema)).toBe(before);
  });
});
