export const notificationsKeys = {
  all: ['notifications'] as const,
  lists: () => [...notificationsKeys.all, 'list'] as const,
  detail: (id: string) => [...notificationsKeys.all, 'detail', id] as const,
  history: (id: string) => [...notificationsKeys.all, 'history', id] as const,
  people: () => [...notificationsKeys.all, 'people'] as const,
  teams: () => [...notificationsKeys.all, 'teams'] as const,
  connections: () => [...notificationsKeys.all, 'connections'] as const,
  demoInbox: () => [...notificationsKeys.all, 'demo-inbox'] as const,
};
