import { httpProbe } from '../../connections';

/**
 * canary-checker's http `crawl`: from the check's URL, follow `<a href>` links breadth first to `depth`, within the
 * allowed domains (the URL's host when none are given) and URL filters, and report every page that did not answer
 * 2xx as missing. Requests carry no credentials or headers of the check, follow no redirects, and stop at
 * MAX_CRAWL_PAGES, so a crawl cannot wander the web or carry a secret off the check's host.
 */

export interface CrawlSpec {
  depth?: number | undefined;
  parallelism?: number | undefined;
  /** Milliseconds between batches, and up to this many more at random. */
  delay?: number | undefined;
  randomDelay?: number | undefined;
  allowedDomains?: string[] | undefined;
  disallowedDomains?: string[] | undefined;
  allowedURLFilters?: string[] | undefined;
  disallowedURLFilters?: string[] | undefined;
  filters?: string[] | undefined;
}

export interface CrawlResult {
  visited: number;
  missing: string[];
  /** True when the page cap stopped the crawl before every link was followed. */
  capped: boolean;
}

/** The most pages one run requests. */
export const MAX_CRAWL_PAGES = 500;
const DEFAULT_DEPTH = 10;
const DEFAULT_PARALLELISM = 2;
const MAX_PARALLELISM = 8;

const LINK = /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

/** The http(s) links of a page, absolute, without fragments. */
export function linksOf(html: string, base: string): string[] {
  const links: string[] = [];
  for (const match of html.matchAll(LINK)) {
    const href = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (href === '' || /^(mailto|javascript|tel|data):/i.test(href)) continue;
    try {
      const url = new URL(href.replace(/&amp;/g, '&'), base);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      url.hash = '';
      links.push(url.toString());
    } catch {
      // An href that is no URL is not a page to visit.
    }
  }
  return links;
}

function domainMatches(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain.toLowerCase() || host.endsWith(`.${domain.toLowerCase()}`));
}

/** The pause between batches canary-checker's crawler keeps (its `delay` plus up to `randomDelay`); a stop cuts it short. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function crawl(start: string, spec: CrawlSpec, options: { insecureTls: boolean; timeoutMs: number; signal: AbortSignal }): Promise<CrawlResult> {
  const startHost = new URL(start).hostname.toLowerCase();
  const allowed = spec.allowedDomains ?? [];
  const disallowed = spec.disallowedDomains ?? [];
  const allowFilters = [...(spec.allowedURLFilters ?? []), ...(spec.filters ?? [])].map((filter) => new RegExp(filter));
  const denyFilters = (spec.disallowedURLFilters ?? []).map((filter) => new RegExp(filter));
  const wanted = (url: string): boolean => {
    const host = new URL(url).hostname.toLowerCase();
    if (allowed.length === 0 && disallowed.length === 0 && host !== startHost) return false;
    if (allowed.length > 0 && !domainMatches(host, allowed)) return false;
    if (domainMatches(host, disallowed)) return false;
    if (denyFilters.some((filter) => filter.test(url))) return false;
    return allowFilters.length === 0 || allowFilters.some((filter) => filter.test(url));
  };
  const depth = spec.depth !== undefined && spec.depth > 0 ? spec.depth : DEFAULT_DEPTH;
  const parallelism = Math.min(Math.max(spec.parallelism ?? DEFAULT_PARALLELISM, 1), MAX_PARALLELISM);
  const seen = new Set<string>([start]);
  const missing: string[] = [];
  let visited = 0;
  let capped = false;
  let level = [start];
  for (let current = 1; level.length > 0 && !options.signal.aborted; current += 1) {
    const next: string[] = [];
    for (let index = 0; index < level.length && !options.signal.aborted; index += parallelism) {
      const batch = level.slice(index, index + parallelism);
      const pages = await Promise.all(
        batch.map(async (url) => {
          visited += 1;
          try {
            const page = await httpProbe({ url, method: 'GET', insecureTls: options.insecureTls, timeoutMs: options.timeoutMs, signal: options.signal });
            if (page.status < 200 || page.status >= 300) missing.push(url);
            return { url, body: page.status >= 200 && page.status < 300 ? page.body : '' };
          } catch {
            missing.push(url);
            return { url, body: '' };
          }
        }),
      );
      for (const page of pages) {
        if (current >= depth) continue;
        for (const link of linksOf(page.body, page.url)) {
          if (seen.has(link) || !wanted(link)) continue;
          if (seen.size >= MAX_CRAWL_PAGES) {
            capped = true;
            continue;
          }
          seen.add(link);
          next.push(link);
        }
      }
      await pause((spec.delay ?? 0) + Math.random() * (spec.randomDelay ?? 0), options.signal);
    }
    level = next;
  }
  return { visited, missing: missing.sort(), capped };
}
