import type { PlaybookRun, PlaybookRunAction } from '@opsdeck/shared';
import { INITIALIZATION_STEP } from '../../api/download-run-logs';

/** An entry of the run detail's actions list: an action, or the synthetic Initialization step of a failed run. */
export interface RunStep extends Pick<PlaybookRunAction, 'id' | 'name' | 'status' | 'scheduled_time' | 'start_time' | 'end_time' | 'error' | 'result' | 'artifacts'> {
  isInitialization: boolean;
}

export const INITIALIZATION_STEP_ID = 'initialization';

/**
 * The run's actions in order; a run that failed with its own error (not an action's) gets a step zero named
 * Initialization holding that error (spec 001 §4), so the reason is where the user looks for output.
 */
export function runSteps(run: PlaybookRun): RunStep[] {
  const actions: RunStep[] = run.actions.map((action) => ({ ...action, isInitialization: false }));
  if (run.status !== 'failed' || !run.error) return actions;
  const initialization: RunStep = {
    id: INITIALIZATION_STEP_ID,
    name: INITIALIZATION_STEP,
    status: 'failed',
    scheduled_time: run.scheduled_time,
    start_time: run.start_time,
    end_time: run.end_time,
    error: run.error,
    result: null,
    artifacts: [],
    isInitialization: true,
  };
  return [initialization, ...actions];
}

/** A skipped action never ran, so it has nothing to show and cannot be selected. */
export function isSelectableStep(step: RunStep): boolean {
  return step.status !== 'skipped';
}

/** The last step that can be selected: the latest output while a run goes on, the end of it once done. */
export function defaultStepId(steps: readonly RunStep[]): string | null {
  return steps.findLast(isSelectableStep)?.id ?? null;
}

/** The user's choice while it is still a selectable step, the default otherwise. */
export function selectedStepId(steps: readonly RunStep[], chosen: string | null): string | null {
  const step = chosen === null ? undefined : steps.find((candidate) => candidate.id === chosen);
  return step !== undefined && isSelectableStep(step) ? step.id : defaultStepId(steps);
}
