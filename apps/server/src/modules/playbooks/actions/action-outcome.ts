import type { PlaybookActionResult } from '@opsdeck/shared';
import type { ActionOutcome } from '../types';

/** Captured stdout, stderr and response bodies keep this much each; the rest is dropped and `truncated` says so. */
export const ACTION_OUTPUT_CAP_BYTES = 1024 * 1024;
/** Rows of an sql action kept in its result. */
export const ACTION_ROW_CAP = 1000;

/**
 * An engine that aborts without a reason when the timeout fires is recognised by the time spent: a cancel that
 * lands in the last moments before the timeout reads as the timeout, which is what happened to the action anyway.
 */
const TIMEOUT_TOLERANCE_MS = 250;

export function completedOutcome(result: PlaybookActionResult): ActionOutcome {
  return { status: 'completed', result };
}

export function failedOutcome(error: string, result: PlaybookActionResult = {}): ActionOutcome {
  return { status: 'failed', result, error };
}

/** `5s`, `1m30s`, `2h`, `750ms`: the way spec durations are written. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const parts = [hours > 0 ? `${hours}h` : '', minutes > 0 ? `${minutes}m` : '', seconds > 0 ? `${seconds}s` : ''];
  return parts.join('');
}

export function timeoutMessage(timeoutMs: number): string {
  return `timed out after ${durationText(timeoutMs)}`;
}

export const CANCELLED_MESSAGE = 'cancelled';

function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError';
}

/**
 * Why the action's signal stopped it: the engine aborts one signal for both its timeout and a cancel, so a
 * TimeoutError reason (AbortSignal.timeout) or the time already spent tells the two apart.
 */
export function stopMessage(signal: AbortSignal, timeoutMs: number, startedAt: number): string {
  if (isTimeoutReason(signal.reason) || performance.now() - startedAt >= timeoutMs - TIMEOUT_TOLERANCE_MS) return timeoutMessage(timeoutMs);
  return CANCELLED_MESSAGE;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON as the result column stores it: dates as ISO text, big integers as text, no undefined. */
export function jsonValues(row: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))) as Record<string, unknown>;
}
