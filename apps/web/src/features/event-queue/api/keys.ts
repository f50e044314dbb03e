export const eventQueueKeys = {
  all: ['settings', 'event-queue'] as const,
  summary: () => [...eventQueueKeys.all, 'summary'] as const,
};
