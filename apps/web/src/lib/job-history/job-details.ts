/** One field of job_history.details, whatever the column holds. */
export function jobDetail(details: unknown, key: 'errors' | 'scrape_summary' | 'summary'): unknown {
  return typeof details === 'object' && details !== null && !Array.isArray(details) ? (details as Record<string, unknown>)[key] : undefined;
}

/** The error texts of a run, whatever shape a writer left them in (strings, or objects with a message). */
export function jobErrors(details: unknown): string[] {
  const errors = jobDetail(details, 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error: unknown) => {
    if (typeof error === 'string') return error === '' ? [] : [error];
    if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return [error.message];
    return error === null || error === undefined ? [] : [JSON.stringify(error)];
  });
}

/** The error seen most often; on a tie, the one seen first. */
export function mostCommonError(errors: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [error, count] of counts) {
    if (count > bestCount) {
      best = error;
      bestCount = count;
    }
  }
  return best;
}

function hasContent(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Spec 001 §2.7: the details modal has something to show only for errors, a scrape summary or a summary. */
export function hasJobDetails(details: unknown): boolean {
  return jobErrors(details).length > 0 || hasContent(jobDetail(details, 'scrape_summary')) || hasContent(jobDetail(details, 'summary'));
}

export function hasJobDetailContent(value: unknown): boolean {
  return hasContent(value);
}

/** Spec 001 §2.7: where a run's resource opens, by its resource type; null for types without a page. */
export function jobResourcePath(resourceType: string | null | undefined, resourceId: string | null | undefined): string | null {
  if (!resourceId) return null;
  const id = encodeURIComponent(resourceId);
  switch (resourceType) {
    case 'canary':
      return `/settings/canaries/${id}`;
    case 'config_scraper':
    case 'catalog_scraper':
      return `/catalog/scrapers/${id}`;
    case 'topology':
      return `/settings/topologies/${id}`;
    case 'config':
      return `/catalog/${id}`;
    case 'playbook':
      return `/playbooks/${id}`;
    case 'agent':
      return `/settings/agents?id=${id}`;
    default:
      return null;
  }
}
