export const usersKeys = {
  all: ['settings', 'users'] as const,
  list: () => [...usersKeys.all, 'list'] as const,
};
