import { describe, expect, it } from 'vitest';
import { normalizeParameterValue, parameterMessage, parseBytes, parseMillicores, validatePlaybookParams } from './playbook-params';
import type { PlaybookParameter, PlaybookParameterProperties } from './playbooks';

function text(properties: PlaybookParameterProperties, required = false): PlaybookParameter {
  return { name: 'value', type: 'text', required, properties };
}

const UUID = '0b8f3c1e-5d1a-4f3e-9a57-2c1d6e7f8a90';

describe('parseBytes', () => {
  it.each([
    ['1024', 1024],
    ['512Mi', 512 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['100M', 100e6],
    ['2k', 2000],
    ['1.5Ki', 1536],
  ])('reads %j as %d bytes', (value, bytes) => {
    expect(parseBytes(value)).toBe(bytes);
  });

  it.each(['', 'Mi', '-1', '10MB', '1gi', '1constructor', '5m'])('refuses %j', (value) => {
    expect(parseBytes(value)).toBeNull();
  });
});

describe('parseMillicores', () => {
  it.each([
    ['500m', 500],
    ['2', 2000],
    ['0.5', 500],
    ['1500m', 1500],
  ])('reads %j as %d millicores', (value, millicores) => {
    expect(parseMillicores(value)).toBe(millicores);
  });

  it.each(['', 'm', '2 cores', '1Gi', '-1'])('refuses %j', (value) => {
    expect(parseMillicores(value)).toBeNull();
  });
});

describe('parameterMessage', () => {
  it('asks for a required value that is empty or blank', () => {
    expect(parameterMessage(text({}, true), '')).toBe('This field is required');
    expect(parameterMessage(text({}, true), '   ')).toBe('This field is required');
  });

  it('accepts an empty optional value whatever its bounds', () => {
    expect(parameterMessage(text({ minLength: 3, format: 'dns1123' }), '')).toBeNull();
    expect(parameterMessage({ name: 'who', type: 'people' }, '')).toBeNull();
  });

  it('holds text to its minimum and maximum length', () => {
    expect(parameterMessage(text({ minLength: 3 }), 'ab')).toBe('Must be at least 3 characters');
    expect(parameterMessage(text({ minLength: 3 }), 'abc')).toBeNull();
    expect(parameterMessage(text({ maxLength: 4 }), 'abcde')).toBe('Must be at most 4 characters');
    expect(parameterMessage(text({ maxLength: 4 }), 'abcd')).toBeNull();
  });

  it('holds text to its pattern, searched for unless the pattern anchors itself', () => {
    expect(parameterMessage(text({ regex: '^v\\d+$' }), 'v12')).toBeNull();
    expect(parameterMessage(text({ regex: '^v\\d+$' }), 'v12a')).toBe('Must match the pattern ^v\\d+$');
    expect(parameterMessage(text({ regex: '\\d' }), 'abc1')).toBeNull();
  });

  it('does not blame a value for a pattern that does not compile', () => {
    expect(parameterMessage(text({ regex: '(' }), 'anything')).toBeNull();
  });

  it.each(['nginx', 'my-app.prod', 'a', '0-9.x'])('accepts the DNS-1123 name %j', (value) => {
    expect(parameterMessage(text({ format: 'dns1123' }), value)).toBeNull();
  });

  it.each(['My-App', '-app', 'app-', 'app_1', 'a..b', 'app.', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`])(
    'refuses %j as a DNS-1123 name',
    (value) => {
      expect(parameterMessage(text({ format: 'dns1123' }), value)).toBe("Must be lowercase letters, digits, '-' and '.'");
    },
  );

  it('asks for a number and holds it to min and max', () => {
    const definition = text({ format: 'number', min: 1, max: 10 });
    expect(parameterMessage(definition, 'ten')).toBe('This field must be a number');
    expect(parameterMessage(definition, '1e')).toBe('This field must be a number');
    expect(parameterMessage(definition, '0')).toBe('Must be at least 1');
    expect(parameterMessage(definition, '10.5')).toBe('Must be at most 10');
    expect(parameterMessage(definition, '2.5')).toBeNull();
    expect(parameterMessage(definition, '1e1')).toBeNull();
  });

  it('asks for a size and compares its bounds in bytes', () => {
    const definition = text({ format: 'bytes', min: 2 ** 20, max: 2 ** 30 });
    expect(parameterMessage(definition, 'lots')).toBe('Must be a size in bytes, such as 512Mi or 1Gi');
    expect(parameterMessage(definition, '512Ki')).toBe(`Must be at least ${2 ** 20}`);
    expect(parameterMessage(definition, '2Gi')).toBe(`Must be at most ${2 ** 30}`);
    expect(parameterMessage(definition, '512Mi')).toBeNull();
    expect(parameterMessage(definition, '1Gi')).toBeNull();
  });

  it('asks for CPU and compares its bounds in millicores', () => {
    const definition = text({ format: 'millicores', min: 100, max: 4000 });
    expect(parameterMessage(definition, 'fast')).toBe('Must be CPU millicores, such as 500m or 2');
    expect(parameterMessage(definition, '50m')).toBe('Must be at least 100m');
    expect(parameterMessage(definition, '5')).toBe('Must be at most 4000m');
    expect(parameterMessage(definition, '0.5')).toBeNull();
    expect(parameterMessage(definition, '4')).toBeNull();
  });

  it('checks the bytes, millicores and duration types as Mission Control has them, bounds included', () => {
    expect(parameterMessage({ name: 'memory', type: 'bytes', properties: { max: 2 ** 30 } }, '2Gi')).toBe(`Must be at most ${2 ** 30}`);
    expect(parameterMessage({ name: 'memory', type: 'bytes' }, 'lots')).toBe('Must be a size in bytes, such as 512Mi or 1Gi');
    expect(parameterMessage({ name: 'cpu', type: 'millicores', properties: { min: 100 } }, '50m')).toBe('Must be at least 100m');
    expect(parameterMessage({ name: 'cpu', type: 'millicores' }, '250m')).toBeNull();
    const retention: PlaybookParameter = { name: 'retention', type: 'duration', properties: { min: 300_000 } };
    expect(parameterMessage(retention, '15m')).toBeNull();
    expect(parameterMessage(retention, '1m')).toBe('Must be at least 5m');
    expect(parameterMessage(retention, 'soon')).toBe('Must be a duration, such as 30s, 5m or 1h');
    const offered: PlaybookParameter = { name: 'window', type: 'duration', properties: { options: [{ label: '5m', value: '5m' }, { label: '1h', value: '1h' }] } };
    expect(parameterMessage(offered, '1h')).toBeNull();
    expect(parameterMessage(offered, '2h')).toBe('Choose one of the options');
  });

  it('holds a secret to its length bounds only, and asks for it when required', () => {
    const definition: PlaybookParameter = { name: 'token', type: 'secret', required: true, properties: { minLength: 8 } };
    expect(parameterMessage(definition, '')).toBe('This field is required');
    expect(parameterMessage(definition, 'short')).toBe('Must be at least 8 characters');
    expect(parameterMessage(definition, 'long enough')).toBeNull();
  });

  it('leaves other formats, which only hint the input type, to the browser', () => {
    expect(parameterMessage(text({ format: 'email', min: 5 }), 'not an email')).toBeNull();
  });

  it('accepts only true or false for a checkbox', () => {
    const definition: PlaybookParameter = { name: 'force', type: 'checkbox' };
    expect(parameterMessage(definition, 'true')).toBeNull();
    expect(parameterMessage(definition, 'false')).toBeNull();
    expect(parameterMessage(definition, 'yes')).toBe('Must be true or false');
  });

  it('accepts only the value of one of the options of a list', () => {
    const definition: PlaybookParameter = {
      name: 'env',
      type: 'list',
      properties: { options: [{ label: 'Production', value: 'prod' }, { label: 'Staging', value: 'stage' }] },
    };
    expect(parameterMessage(definition, 'prod')).toBeNull();
    expect(parameterMessage(definition, 'Production')).toBe('Choose one of the options');
  });

  it('parses code written in JSON or YAML and says what is wrong with it', () => {
    const json: PlaybookParameter = { name: 'patch', type: 'code', properties: { language: 'json' } };
    const yaml: PlaybookParameter = { name: 'patch', type: 'code', properties: { language: 'yaml' } };
    expect(parameterMessage(json, '{"replicas": 2}')).toBeNull();
    expect(parameterMessage(json, '{replicas: 2}')).toMatch(/^Not valid JSON: /);
    expect(parameterMessage(yaml, 'replicas: 2\nimage: nginx')).toBeNull();
    expect(parameterMessage(yaml, 'replicas: [2')).toMatch(/^Not valid YAML: /);
    expect(parameterMessage({ name: 'script', type: 'code' }, '{ not parsed')).toBeNull();
  });

  it('holds code to its length bounds', () => {
    expect(parameterMessage({ name: 'patch', type: 'code', properties: { maxLength: 5 } }, '123456')).toBe('Must be at most 5 characters');
  });

  it.each([
    ['team', 'Choose a team'],
    ['people', 'Choose a person'],
    ['component', 'Choose a component'],
    ['config', 'Choose a catalog item'],
    ['check', 'Choose a check'],
  ] as const)('asks for the id of a %s', (type, message) => {
    expect(parameterMessage({ name: 'target', type }, UUID)).toBeNull();
    expect(parameterMessage({ name: 'target', type }, 'nginx')).toBe(message);
  });
});

describe('validatePlaybookParams', () => {
  const definitions: PlaybookParameter[] = [
    { name: 'namespace', type: 'text', required: true, properties: { format: 'dns1123' } },
    { name: 'replicas', type: 'text', properties: { format: 'number', min: 0, max: 10 } },
    { name: 'force', type: 'checkbox' },
  ];

  it('answers nothing when every value is valid', () => {
    expect(validatePlaybookParams(definitions, { namespace: 'default', replicas: '3', force: 'true' })).toEqual({});
  });

  it('names each invalid parameter with its message, a missing required one included', () => {
    expect(validatePlaybookParams(definitions, { replicas: '30', force: 'maybe' })).toEqual({
      namespace: 'This field is required',
      replicas: 'Must be at most 10',
      force: 'Must be true or false',
    });
  });

  it('reports values that name no parameter, even one called __proto__', () => {
    const values = JSON.parse('{"namespace":"default","extra":"1","__proto__":"x"}') as Record<string, string>;
    const problems = validatePlaybookParams(definitions, values);
    expect(Object.keys(problems).sort()).toEqual(['__proto__', 'extra']);
    expect(problems.extra).toBe('Unknown parameter');
    expect(Object.getOwnPropertyDescriptor(problems, '__proto__')?.value).toBe('Unknown parameter');
  });

  it('does not take inherited properties of the values for parameters', () => {
    expect(validatePlaybookParams([{ name: 'toString', type: 'text', required: true }], {})).toEqual({ toString: 'This field is required' });
  });
});

describe('normalizeParameterValue', () => {
  const checkbox: PlaybookParameter = { name: 'force', type: 'checkbox' };
  const plain: PlaybookParameter = { name: 'note', type: 'text' };

  it('writes booleans and numbers as the strings a run keeps', () => {
    expect(normalizeParameterValue(checkbox, true)).toBe('true');
    expect(normalizeParameterValue(checkbox, false)).toBe('false');
    expect(normalizeParameterValue(plain, 3)).toBe('3');
    expect(normalizeParameterValue(plain, 2.5)).toBe('2.5');
  });

  it('writes a checkbox spelled in capitals in lower case and leaves other text as typed', () => {
    expect(normalizeParameterValue(checkbox, ' TRUE ')).toBe('true');
    expect(normalizeParameterValue(plain, ' TRUE ')).toBe(' TRUE ');
  });

  it('writes nothing for a missing value and JSON for structured code', () => {
    expect(normalizeParameterValue(plain, undefined)).toBe('');
    expect(normalizeParameterValue(plain, null)).toBe('');
    expect(normalizeParameterValue({ name: 'patch', type: 'code' }, { replicas: 2 })).toBe('{"replicas":2}');
  });
});
