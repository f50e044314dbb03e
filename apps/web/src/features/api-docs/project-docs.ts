/**
 * The repository's own documentation, bundled into the web app at build time so that Help reaches the docs of the
 * version running, offline and without the server serving files from the repository. Each file loads in its own
 * chunk the first time it is opened.
 */
const loaders = import.meta.glob<string>(['../../../../../README.md', '../../../../../docs/*.md', '../../../../../docs/adr/*.md'], {
  query: '?raw',
  import: 'default',
});

const ROOT = '../../../../../';

export interface ProjectDoc {
  /** The path under /docs/ that shows it, e.g. `architecture` or `adr/0001-…`. */
  slug: string;
  title: string;
  description: string;
  load: () => Promise<string>;
}

function doc(file: string, slug: string, title: string, description: string): ProjectDoc {
  const load = loaders[`${ROOT}${file}`];
  return { slug, title, description, load: load ?? (() => Promise.reject(new Error(`${file} is not part of this build`))) };
}

export const PROJECT_DOCS = {
  readme: doc('README.md', 'readme', 'Overview', 'What Opsdeck is, how to run and test it, and its configuration.'),
  architecture: doc('docs/architecture.md', 'architecture', 'Architecture', 'The server, database, data API, modules and web app, as built today.'),
  security: doc('docs/security.md', 'security', 'Security', 'The threat model and how to report a vulnerability.'),
  errors: doc('docs/errors.md', 'errors', 'Errors', 'Every error code the API answers with, its status and when it happens.'),
  queryGrammar: doc('docs/query-grammar.md', 'query-grammar', 'Data API query grammar', 'What /api/db accepts: filters, embedding, ordering, paging and writes.'),
  catalog: doc('docs/catalog.md', 'catalog', 'Catalog API', 'The catalog routes, views and functions the catalog pages read, and their addresses.'),
  api: doc('docs/api.md', 'api', 'API tokens and examples', 'Personal API tokens and token-authenticated calls to the data API and alert ingestion.'),
  alerts: doc('docs/alerts.md', 'alerts', 'Alert ingestion', 'Sending Alertmanager and generic webhook alerts, deduplication and resolution.'),
  incidentRules: doc('docs/incident-rules.md', 'incident-rules', 'Incident rules', 'Rules that open, group and resolve incidents from checks, components and alerts.'),
  audit: doc('docs/audit.md', 'audit', 'Audit log', 'What every write records, what is never recorded, and retention.'),
  deploy: doc('docs/deploy.md', 'deploy', 'Production deployment', 'PostgreSQL, API and worker processes, agents in remote clusters, the manifests.'),
  metrics: doc('docs/metrics.md', 'metrics', 'Metrics', 'The Prometheus series at /metrics and how to expose them safely.'),
} as const;

function titleFromAdrFile(name: string): string {
  const match = /^(\d+)-(.*)$/.exec(name);
  if (match === null) return name;
  const words = (match[2] ?? '').replace(/-/g, ' ');
  return `ADR ${match[1]}: ${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** The architecture decision records, oldest first; the folder's index and template are not records. */
export const DECISION_RECORDS: readonly ProjectDoc[] = Object.keys(loaders)
  .filter((key) => /^\d+-/.test(key.slice(`${ROOT}docs/adr/`.length)) && key.startsWith(`${ROOT}docs/adr/`))
  .sort()
  .map((key) => {
    const name = key.slice(`${ROOT}docs/adr/`.length, -'.md'.length);
    return doc(key.slice(ROOT.length), `adr/${name}`, titleFromAdrFile(name), '');
  });

const ALL: readonly ProjectDoc[] = [...Object.values(PROJECT_DOCS), ...DECISION_RECORDS];

export function projectDocBySlug(slug: string): ProjectDoc | undefined {
  return ALL.find((entry) => entry.slug === slug);
}

/**
 * The in-app address of a link found in the doc at `fromSlug`, when it points at another bundled doc (`security.md`,
 * `adr/0003-….md`, `docs/architecture.md` from the README); null for anything else, which stays an ordinary link.
 */
export function projectDocHref(fromSlug: string, href: string): string | null {
  const [target = '', anchor] = href.split('#');
  if (!target.endsWith('.md') || /^[a-z]+:/i.test(target)) return null;
  const fromFile = fromSlug === PROJECT_DOCS.readme.slug ? 'README.md' : `docs/${fromSlug}.md`;
  const parts = fromFile.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const file = parts.join('/');
  const slug = file === 'README.md' ? PROJECT_DOCS.readme.slug : file.startsWith('docs/') ? file.slice('docs/'.length, -'.md'.length) : null;
  if (slug === null || projectDocBySlug(slug) === undefined) return null;
  return `/docs/${slug}${anchor === undefined ? '' : `#${anchor}`}`;
}
