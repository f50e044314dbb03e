export const auditKeys = {
  all: ['settings', 'audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  /** One page of the log: its filters, range and page. */
  list: (query: object) => [...auditKeys.lists(), query] as const,
};
