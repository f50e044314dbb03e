import { errors } from '../../platform/errors';
import type { WriteMethod } from '../../data-api/write-hooks';
import { canarySpecRefusal, CanarySpecError, checksFromCanarySpec } from './canary-spec';
import { isValidSchedule } from './schedule';

/** The canary routes' refusal of a schedule column that does not parse, in the same words. */
export function scheduleRefusal(schedule: unknown): Error {
  return errors.invalidCanarySpec(`schedule: '${String(schedule)}' is not a valid schedule (@every 30s, @hourly, or a 5- or 6-field cron)`);
}

export function isBlankSchedule(schedule: unknown): boolean {
  return schedule === undefined || schedule === null || (typeof schedule === 'string' && schedule.trim() === '');
}

/**
 * Rows of canaries written through /api/db (insert, update, upsert) meet the rules of the canary routes, with the same
 * codes: the spec judged by the check catalogue (ADR 0069) and the schedule column parsed. Without this a canary the
 * routes refuse would be stored and its checks would never appear. The execute rule runs before, in exec-permission.ts.
 */
export function canarySpecRowsValidator(rows: ReadonlyArray<Record<string, unknown>>, method: WriteMethod): void {
  if (method === 'DELETE') return;
  for (const row of rows) {
    if (row.spec !== undefined) {
      try {
        checksFromCanarySpec(row.spec);
      } catch (error) {
        if (error instanceof CanarySpecError) throw canarySpecRefusal(error);
        throw error;
      }
    }
    const schedule = row.schedule;
    if (isBlankSchedule(schedule)) continue;
    if (typeof schedule !== 'string' || !isValidSchedule(schedule)) throw scheduleRefusal(schedule);
  }
}
