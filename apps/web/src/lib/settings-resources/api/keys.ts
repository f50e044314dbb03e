export const settingsResourceKeys = {
  all: ['settings', 'resources'] as const,
  table: (table: string) => [...settingsResourceKeys.all, table] as const,
  list: (table: string) => [...settingsResourceKeys.table(table), 'list'] as const,
  detail: (table: string, id: string) => [...settingsResourceKeys.table(table), 'detail', id] as const,
  jobHistory: (id: string) => [...settingsResourceKeys.all, 'job-history', id] as const,
};
