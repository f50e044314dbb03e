import { PLAYBOOK_ACTION_TYPES, type PlaybookAction, type PlaybookActionType } from '@opsdeck/shared';
import type { ActionRunner } from '../types';
import { runExecAction } from './exec';
import { runHttpAction } from './http';
import { runNotificationAction } from './notification';
import { runSqlAction } from './sql';

/** The runner of each action type; each returns a failed outcome for a failure of the action and never throws for one. */
export const ACTION_RUNNERS: Record<PlaybookActionType, ActionRunner> = {
  exec: runExecAction,
  http: runHttpAction,
  sql: runSqlAction,
  notification: runNotificationAction,
};

/** The one type block the action holds; the spec parser refuses an action with none or several, so that is a bug here. */
export function actionType(action: PlaybookAction): PlaybookActionType {
  const present = PLAYBOOK_ACTION_TYPES.filter((type) => action[type] !== undefined);
  const [type] = present;
  if (type === undefined || present.length > 1) throw new Error(`Action '${action.name}' must hold exactly one of ${PLAYBOOK_ACTION_TYPES.join(', ')}`);
  return type;
}
