export const jobKeys = {
  all: ['jobs'] as const,
  histories: (query: Record<string, string | number | null>) => [...jobKeys.all, 'histories', query] as const,
  names: () => [...jobKeys.all, 'names'] as const,
};
