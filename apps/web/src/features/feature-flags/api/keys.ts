export const featureFlagsKeys = {
  all: ['settings', 'feature-flags'] as const,
  list: () => [...featureFlagsKeys.all, 'list'] as const,
};
