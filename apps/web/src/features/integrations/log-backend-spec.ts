import { logBackendSpecSchema } from '@opsdeck/shared';

/**
 * What the log backend schema refuses in a spec, as '<path>: <message>' lines. The zod schema rather than the JSON
 * Schema the editor underlines with: only zod knows that a spec holds exactly one backend.
 */
export function logBackendSpecProblems(spec: Readonly<Record<string, unknown>>): string[] {
  const result = logBackendSpecSchema.safeParse(spec);
  if (result.success) return [];
  return result.error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`));
}
