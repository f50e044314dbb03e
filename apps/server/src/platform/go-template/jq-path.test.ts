import { describe, expect, it } from 'vitest';
import { JqPathError, parseJqPath, runJqPath } from './jq-path';

const pod = {
  metadata: { name: 'api-1', labels: { 'app.kubernetes.io/name': 'api' } },
  status: { containerStatuses: [{ name: 'api', state: { waiting: { message: 'back-off 5m0s restarting failed container' } } }, { name: 'sidecar', state: { running: {} } }] },
};

function refusal(expression: string, input: unknown = pod): string {
  try {
    runJqPath(expression, input);
  } catch (error) {
    if (error instanceof JqPathError) return error.message;
    throw error;
  }
  throw new Error('the expression ran');
}

describe('jq paths', () => {
  it('reads the path Mission Control notification templates write into a pod', () => {
    expect(runJqPath('.status.containerStatuses[0].state.waiting.message', pod)).toBe('back-off 5m0s restarting failed container');
  });

  it('reads quoted keys, negative indexes and the whole value', () => {
    expect(runJqPath('.metadata.labels["app.kubernetes.io/name"]', pod)).toBe('api');
    expect(runJqPath('.metadata.labels.["app.kubernetes.io/name"]', pod)).toBe('api');
    expect(runJqPath('.status.containerStatuses[-1].name', pod)).toBe('sidecar');
    expect(runJqPath('.', { a: 1 })).toEqual({ a: 1 });
  });

  it('returns one result as itself and several as a list, as gomplate does', () => {
    expect(runJqPath('.status.containerStatuses[].name', pod)).toEqual(['api', 'sidecar']);
    expect(runJqPath('.status.containerStatuses | .[] | .name', pod)).toEqual(['api', 'sidecar']);
    expect(runJqPath('.[]', [])).toEqual([]);
  });

  it('answers null for a missing key or index, as jq does', () => {
    expect(runJqPath('.status.nope.deeper', pod)).toBeNull();
    expect(runJqPath('.status.containerStatuses[7]', pod)).toBeNull();
  });

  it('reads a text holding a JSON object as that object', () => {
    expect(runJqPath('.spec.path', JSON.stringify({ spec: { path: './clusters/prod' } }))).toBe('./clusters/prod');
  });

  it('fails on a step the value cannot take, unless the step ends in ?', () => {
    expect(refusal('.metadata.name.first')).toContain('cannot read field "first" of string');
    expect(refusal('.metadata[0]')).toContain('cannot index object with a number');
    expect(runJqPath('.metadata.name.first?', pod)).toEqual([]);
  });

  it("keeps the values select() holds for, as config-db's change rules write it, and reads on after it", () => {
    const patch = { status: { conditions: [{ type: 'Ready', message: 'ok' }, { type: 'Healthy', message: 'Health check passed' }] } };
    expect(runJqPath('.status.conditions[]? | select(.type == "Healthy").message', patch)).toBe('Health check passed');
    expect(runJqPath('.status.conditions[] | select(.type != "Healthy") | .message', patch)).toBe('ok');
    expect(runJqPath('.status.conditions[] | select(.message) | .type', patch)).toEqual(['Ready', 'Healthy']);
    expect(runJqPath('.status.conditions[] | select(.type == "Gone")', patch)).toEqual([]);
  });

  it('drops the values a try stage fails on instead of failing', () => {
    expect(runJqPath('try .status.conditions[] | select(.type == "Healthy").message', { status: {} })).toEqual([]);
    expect(refusal('.status.conditions[]')).toContain('cannot iterate over null');
  });

  it('refuses by name what is more than a path: functions, recursion, arithmetic and construction', () => {
    expect(refusal('.status | length')).toContain('"length" is not supported by this server');
    expect(refusal('..')).toContain('is not supported by this server');
    expect(refusal('.a + 1')).toContain('"+ 1" is not supported');
    expect(refusal('{name: .metadata.name}')).toContain('is not supported by this server');
    expect(refusal('.a[] | select(.b > 1)')).toContain('is not supported by this server');
    expect(refusal('.a[] | select(.b == {"x": 1})')).toContain('is not supported by this server');
    expect(() => parseJqPath('')).toThrow(JqPathError);
  });
});
