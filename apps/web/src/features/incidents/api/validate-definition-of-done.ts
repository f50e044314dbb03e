import type { EvidenceType } from '@opsdeck/shared';
import { isApiError } from '@/lib/api/api-error';
import { requestJson } from '@/lib/api/http';

export type ScriptValidation = { valid: true } | { valid: false; message: string; details: string | null };

/** Asks the server whether a CEL script suits the evidence type; a refusal carries the reason to show. */
export async function validateDefinitionOfDoneScript(script: string, type: EvidenceType): Promise<ScriptValidation> {
  try {
    await requestJson<{ valid: true }>('/api/incidents/definition-of-done/validate', { method: 'POST', json: { script, type }, silent: true });
    return { valid: true };
  } catch (error) {
    if (isApiError(error) && error.status === 400) {
      const details = typeof error.body === 'object' && error.body !== null && 'details' in error.body ? error.body.details : null;
      return { valid: false, message: error.message, details: typeof details === 'string' && details !== '' ? details : null };
    }
    throw error;
  }
}
