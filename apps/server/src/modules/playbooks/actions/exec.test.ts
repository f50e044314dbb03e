import { describe, expect, it } from 'vitest';
import type { PlaybookTarget } from '../types';
import { execEnvironment, invalidEnvironment, paramEnvName } from './exec';

const pod: PlaybookTarget = {
  type: 'config',
  id: 'c0ffee00-0000-4000-8000-000000000001',
  name: 'api-7d9f',
  kind: 'Kubernetes::Pod',
  namespace: 'shop',
  tags: {},
  labels: {},
  status: null,
  health: null,
  row: {},
};

describe('the environment of an exec action', () => {
  it('names each parameter PARAM_ upper-cased with every other character turned into an underscore', () => {
    expect(paramEnvName('replicas')).toBe('PARAM_REPLICAS');
    expect(paramEnvName('dry-run.mode 2')).toBe('PARAM_DRY_RUN_MODE_2');
  });

  it('holds the parameters, the run id, the target and then the action env, whose entries win', () => {
    const variables = execEnvironment(
      { params: { replicas: '3', 'dry-run': 'true' }, runId: 'run-1', target: pod },
      [{ name: 'GREETING', value: 'hello' }, { name: 'PARAM_REPLICAS', value: '4' }],
    );
    expect(variables).toEqual({
      PARAM_REPLICAS: '4',
      PARAM_DRY_RUN: 'true',
      PLAYBOOK_RUN_ID: 'run-1',
      CONFIG_ID: pod.id,
      CONFIG_NAME: 'api-7d9f',
      CONFIG_TYPE: 'Kubernetes::Pod',
      GREETING: 'hello',
    });
  });

  it('prefixes component and check targets with their own names', () => {
    const check = execEnvironment({ params: {}, runId: 'r', target: { ...pod, type: 'check', kind: null } }, undefined);
    expect(check).toMatchObject({ CHECK_ID: pod.id, CHECK_NAME: 'api-7d9f', CHECK_TYPE: '' });
    const component = execEnvironment({ params: {}, runId: 'r', target: { ...pod, type: 'component', kind: 'Service' } }, undefined);
    expect(component).toMatchObject({ COMPONENT_ID: pod.id, COMPONENT_TYPE: 'Service' });
    expect(execEnvironment({ params: {}, runId: 'r', target: null }, undefined)).toEqual({ PLAYBOOK_RUN_ID: 'r' });
  });

  it('refuses names and values the operating system cannot take', () => {
    expect(invalidEnvironment({ GOOD_1: 'x' })).toBeNull();
    expect(invalidEnvironment({ 'A=B': 'x' })).toBe("'A=B' is not a valid environment variable name");
    expect(invalidEnvironment({ '1ST': 'x' })).toBe("'1ST' is not a valid environment variable name");
    expect(invalidEnvironment({ NUL: 'a\0b' })).toBe('the value of NUL holds a NUL character');
  });

  it('refuses a value that bash would run as a command wherever a script used it arithmetically, and keeps look-alikes', () => {
    expect(invalidEnvironment({ PARAM_X: 'x[$(touch /tmp/p)]' })).toMatch(/^the value of PARAM_X holds an array subscript with a command substitution/);
    expect(invalidEnvironment({ PARAM_X: 'x[`id`]' })).toMatch(/^the value of PARAM_X holds an array subscript/);
    expect(invalidEnvironment({ PARAM_X: 'a[\n$(id)]' })).toMatch(/^the value of PARAM_X holds an array subscript/);
    expect(invalidEnvironment({ PARAM_X: '$(touch /tmp/p)', PARAM_Y: 'list[0]', PARAM_Z: '`id` [x]' })).toBeNull();
  });
});
