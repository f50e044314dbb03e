import { AppError } from '../platform/errors';

/**
 * Runs a stage function that is expected to refuse its input and says how: `"400 PGRST100"`, null when it did not
 * throw. The stage tests compare these strings, so a refusal with the wrong status or code reads clearly in a diff.
 */
export function errorCodeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof AppError ? `${error.statusCode} ${error.code}` : 'not an AppError';
  }
}
