export const apiTokenKeys = {
  all: ['profile', 'api-tokens'] as const,
  list: () => [...apiTokenKeys.all, 'list'] as const,
};
