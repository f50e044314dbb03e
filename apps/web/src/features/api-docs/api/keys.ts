export const apiDocsKeys = {
  all: ['api-docs'] as const,
  document: () => [...apiDocsKeys.all, 'openapi'] as const,
};
