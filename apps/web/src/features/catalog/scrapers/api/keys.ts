export const scraperKeys = {
  all: ['scrapers'] as const,
  list: () => [...scraperKeys.all, 'list'] as const,
  detail: (id: string) => [...scraperKeys.all, 'detail', id] as const,
  jobs: (id: string) => [...scraperKeys.all, 'jobs', id] as const,
};
