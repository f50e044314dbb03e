import { useQuery } from '@tanstack/react-query';
import type { JsonSchema } from '@/components/code-editor/code-editor';
import { requestJson } from '@/lib/api/http';
import { playbookKeys } from './keys';

export const PLAYBOOK_SPEC_SCHEMA_URL = '/api/schemas/playbook-spec.schema.json';

/** The playbook-spec JSON Schema the server checks saves against, for the editor's own diagnostics. */
export async function getPlaybookSchema(signal?: AbortSignal): Promise<JsonSchema> {
  return requestJson<JsonSchema>(PLAYBOOK_SPEC_SCHEMA_URL, { signal, silent: true });
}

/** Diagnostics only: without the schema the editor still checks syntax and the server still checks the spec. */
export function usePlaybookSchemaQuery() {
  return useQuery({ queryKey: [...playbookKeys.all, 'schema'], queryFn: ({ signal }) => getPlaybookSchema(signal), staleTime: Infinity, retry: false });
}
