import { describe, expect, it } from 'vitest';
import type { PlaybookRun, PlaybookRunAction } from '@opsdeck/shared';
import { defaultStepId, runSteps, selectedStepId } from './run-steps';

function action(id: string, status: PlaybookRunAction['status']): PlaybookRunAction {
  return { id, playbook_run_id: 'r', name: id, status, scheduled_time: '2026-01-01T00:00:00Z', start_time: null, end_time: null, error: null, result: null, artifacts: [] };
}

function run(overrides: Partial<PlaybookRun>): PlaybookRun {
  return {
    id: 'r',
    playbook_id: 'p',
    playbooks: null,
    status: 'completed',
    parameters: {},
    config_id: null,
    component_id: null,
    check_id: null,
    target: null,
    scheduled_time: '2026-01-01T00:00:00Z',
    start_time: null,
    end_time: null,
    created_at: '2026-01-01T00:00:00Z',
    created_by: null,
    created_by_name: null,
    error: null,
    approval: null,
    request: null,
    actions: [],
    ...overrides,
  };
}

describe('run detail steps', () => {
  it('add an Initialization step only to a failed run with its own error', () => {
    expect(runSteps(run({ status: 'failed', error: 'no worker' })).map((step) => step.name)).toEqual(['Initialization']);
    expect(runSteps(run({ status: 'cancelled', error: 'cancelled by Ada', actions: [action('a', 'cancelled')] })).map((step) => step.name)).toEqual(['a']);
    expect(runSteps(run({ status: 'failed', actions: [action('a', 'failed')] })).map((step) => step.name)).toEqual(['a']);
  });

  it('select the last step that is not skipped unless the user chose another selectable one', () => {
    const steps = runSteps(run({ actions: [action('a', 'completed'), action('b', 'failed'), action('c', 'skipped')] }));
    expect(defaultStepId(steps)).toBe('b');
    expect(selectedStepId(steps, 'a')).toBe('a');
    expect(selectedStepId(steps, 'c')).toBe('b');
    expect(selectedStepId(steps, 'gone')).toBe('b');
    expect(defaultStepId([])).toBeNull();
  });
});
