import { toast } from 'sonner';
import { TOAST_DURATION_MS } from '@opsdeck/shared';

const FALLBACK_MESSAGE = 'Something went wrong';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The text to show for a failure: an API error's server body `message` first (PostgREST and identity bodies),
 * then the error's own message, then a plain string.
 */
export function errorMessage(error: unknown): string {
  if (typeof error === 'string') return nonEmpty(error) ?? FALLBACK_MESSAGE;
  if (!isRecord(error)) return FALLBACK_MESSAGE;
  const body = error.body;
  if (isRecord(body)) {
    const fromBody = nonEmpty(body.message) ?? (isRecord(body.error) ? nonEmpty(body.error.message) : null);
    if (fromBody) return fromBody;
  }
  return nonEmpty(error.message) ?? FALLBACK_MESSAGE;
}

const MAX_DETAILS_LENGTH = 500;

/** The server's `details` and `hint` of a failed call, each null when the body has none. */
export function errorExplanation(error: unknown): { details: string | null; hint: string | null } {
  if (!isRecord(error) || !isRecord(error.body)) return { details: null, hint: null };
  return { details: nonEmpty(error.body.details), hint: nonEmpty(error.body.hint) };
}

/**
 * The server's explanation beyond the message (its `details`, then its `hint`), so that e.g. a refused spec says
 * which field is wrong; null when the error carries none.
 */
export function errorDetails(error: unknown): string | null {
  const { details, hint } = errorExplanation(error);
  const parts = [details, hint].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  const text = parts.join(' — ');
  return text.length > MAX_DETAILS_LENGTH ? `${text.slice(0, MAX_DETAILS_LENGTH - 1)}…` : text;
}

export function toastSuccess(message: string): void {
  toast.success(message, { duration: TOAST_DURATION_MS });
}

export function toastError(errorOrMessage: unknown): void {
  const message = errorMessage(errorOrMessage);
  // Same id as the guarded fetch uses, so a failure it already reported is not shown twice.
  const details = errorDetails(errorOrMessage);
  toast.error(message, { id: message, duration: TOAST_DURATION_MS, ...(details === null ? {} : { description: details }) });
}
