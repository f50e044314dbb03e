import { AppError } from '../../platform/errors';

/** Where a refusal sits: the file (when the CLI named one), the 1-based document index and the field path. */
export function locationOf(file: string | null, index: number, field: string | null): string {
  return `${file ?? '(request body)'} document ${index}${field === null ? '' : `: ${field}`}`;
}

export const applyErrors = {
  document: (location: string, problem: string) =>
    new AppError(400, 'OD_APPLY_DOCUMENT', `The document is not a resource this server can apply: ${problem}`, location, 'Give apiVersion, kind, metadata.name and spec as in a Kubernetes manifest'),
  kind: (location: string, kind: string, apiVersion: string, supported: string) =>
    new AppError(400, 'OD_APPLY_KIND', `${kind} (${apiVersion}) is not applied by this server`, location, `Apply one of: ${supported}`),
  duplicate: (location: string, key: string) =>
    new AppError(400, 'OD_APPLY_DUPLICATE', `${key} appears more than once in this apply`, location, 'Keep one document per kind, namespace and name'),
  sourceConflict: (location: string, key: string, source: string) =>
    new AppError(
      409,
      'OD_APPLY_SOURCE_CONFLICT',
      `${key} already exists and comes from ${source}, not from this apply`,
      location,
      'Rename the resource in the manifest, or delete the existing one where it is defined first',
    ),
  /** A field of a Notification or Connection this server does not run: refused by name, never saved and ignored. */
  notRun: (location: string, kind: 'Notification' | 'Connection', problem: string) =>
    new AppError(
      400,
      kind === 'Notification' ? 'OD_NOTIFICATION_FIELD_NOT_RUN' : 'OD_CONNECTION_FIELD_NOT_RUN',
      problem,
      location,
      'Remove the field from the manifest (docs/compatibility.md lists what runs), or create the resource in the console',
    ),
  forbidden: (location: string, kind: string) =>
    new AppError(403, 'OD403', `You do not have permission to apply a ${kind}`, location, 'Ask an administrator for a role that allows it'),
  /** A kind's own refusal (its save rules or a database guard), its code kept, its details prefixed with the place. */
  refused: (location: string, error: AppError) =>
    new AppError(error.statusCode, error.code, error.message, error.details === null ? location : `${location}: ${error.details}`, error.hint),
} as const;
