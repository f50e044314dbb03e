import { isEvidenceType, type ScriptValidation } from '@opsdeck/shared';
import type { StoredEvidenceType } from './types';
import { isApiError } from '@/lib/api/api-error';
import { requestJson } from '@/lib/api/http';

/** Asks the server whether a CEL script suits the evidence type; a refusal carries the reason to show. */
export async function validateDefinitionOfDoneScript(script: string, type: StoredEvidenceType): Promise<ScriptValidation> {
  try {
    // An alert (attached by an incident rule) has no type of its own there: the script is checked against every type.
    const json = isEvidenceType(type) ? { script, type } : { script };
    await requestJson<{ valid: true }>('/api/incidents/definition-of-done/validate', { method: 'POST', json, silent: true });
    return { valid: true };
  } catch (error) {
    if (isApiError(error) && error.status === 400) {
      const details = typeof error.body === 'object' && error.body !== null && 'details' in error.body ? error.body.details : null;
      return { valid: false, message: error.message, details: typeof details === 'string' && details !== '' ? details : null };
    }
    throw error;
  }
}
