import { errorMessage } from '@/components/toast/toast';

export interface SaveProblem {
  message: string;
  /** The server's details: for a refused spec, the field at fault (e.g. `spec.file[0].format`). */
  details: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A failed save as the form shows it; data API errors carry details on themselves, other calls in their body. */
export function saveProblemOf(error: unknown): SaveProblem {
  const body = isRecord(error) && isRecord(error.body) ? error.body : error;
  return { message: errorMessage(error), details: isRecord(body) ? text(body.details) : null };
}
