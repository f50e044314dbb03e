import { useQuery } from '@tanstack/react-query';
import { requestJson } from '@/lib/api/http';
import { openApiDocumentSchema, type OpenApiDocument } from '../openapi-model';
import { apiDocsKeys } from './keys';

export const OPENAPI_URL = '/api/openapi.json';

export const MALFORMED_DOCUMENT_MESSAGE = 'The server answered with something that is not an OpenAPI document.';

/** The running server's own OpenAPI document, so the reference always matches the version in use. */
export async function getOpenApiDocument(signal?: AbortSignal): Promise<OpenApiDocument> {
  const body = await requestJson<unknown>(OPENAPI_URL, { signal, silent: true });
  const parsed = openApiDocumentSchema.safeParse(body);
  if (!parsed.success) throw new Error(MALFORMED_DOCUMENT_MESSAGE);
  return parsed.data;
}

export function useOpenApiDocument() {
  return useQuery({ queryKey: apiDocsKeys.document(), queryFn: ({ signal }) => getOpenApiDocument(signal), staleTime: Infinity });
}
