/**
 * kubernetesFile sources. Mission Control reads these files by exec-ing into the selected pods; this server does not:
 * a scraper that can run commands in any pod a kubeconfig reaches would turn every spec editor into someone who can
 * run code in the cluster. Instead the files named by `files[].path` are read from local folders under the scrape
 * roots (where a sidecar, a volume or a CI step put the manifests), and `selector` picks the objects among them.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ScrapedItem, ScrapeError, SourceContext, SourceEntry, SourceRunner } from '../types';
import { parseDocuments } from './extract';
import { isUnder, readBounded } from './file';
import { fileErrorMessage, fileSource, shownSpecPath } from './shown-paths';
import { record, stringMap, strings, text, type Json } from '../../../platform/json-values';
import { kubernetesHealth } from '../../../platform/kubernetes-health';
import { kubernetesType } from './kubernetes-relations';

interface Selector {
  namespace?: string;
  kind?: string;
  name?: string;
  labels: Record<string, string>;
}

/** `a=b,c=d` equality selectors only; set-based expressions are not understood and select nothing. */
function parseLabelSelector(raw: string | undefined): Record<string, string> | null {
  if (raw === undefined) return {};
  const pairs = raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^([^=!\s]+)\s*==?\s*([^=!\s]*)$/.exec(pair);
    if (match?.[1] === undefined || match[2] === undefined) return null;
    labels[match[1]] = match[2];
  }
  return labels;
}

function matches(selector: Selector, kind: string, body: Json): boolean {
  const metadata = record(body.metadata);
  if (selector.kind !== undefined && selector.kind.toLowerCase() !== kind.toLowerCase()) return false;
  if (selector.name !== undefined && selector.name !== text(metadata.name)) return false;
  if (selector.namespace !== undefined && selector.namespace !== (text(metadata.namespace) ?? 'default')) return false;
  const labels = stringMap(metadata.labels);
  return Object.entries(selector.labels).every(([label, value]) => labels[label] === value);
}

/**
 * A relative path is looked for under every root and the first that has it wins; an absolute one must be in a root.
 * The errors name no path: the caller names the file as the spec wrote it, relative to its root.
 */
async function locate(file: string, roots: readonly string[]): Promise<string> {
  const candidates = (path.isAbsolute(file) ? [path.normalize(file)] : roots.map((root) => path.join(root, file))).filter((candidate) => isUnder(candidate, roots));
  if (candidates.length === 0) throw new Error('is outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read');
  for (const candidate of candidates) {
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      continue;
    }
    if (!isUnder(real, roots)) throw new Error('is a symlink that leads outside the scrape roots: not read');
    return real;
  }
  throw new Error('not found');
}

function toItem(body: Json, source: string, format: string): ScrapedItem | null {
  const kind = text(body.kind);
  const metadata = record(body.metadata);
  const name = text(metadata.name);
  if (kind === undefined || name === undefined) return null;
  const namespace = text(metadata.namespace) ?? null;
  const alias = `${kind}/${namespace ?? ''}/${name}`;
  const health = kubernetesHealth(kind, body);
  return {
    type: kubernetesType(kind),
    // Manifests written by hand carry no uid: the kind/namespace/name they declare is what identifies them.
    externalId: text(metadata.uid) ?? alias,
    name,
    aliases: [alias],
    health: health.health,
    status: health.status,
    ready: health.ready,
    tags: namespace === null ? {} : { namespace },
    labels: stringMap(metadata.labels),
    config: body,
    format,
    source,
    createdAt: text(metadata.creationTimestamp) ?? null,
  };
}

/** Reads Kubernetes manifests from the local files `files[].path` names and keeps the objects `selector` picks. */
export const runKubernetesFileSource: SourceRunner = async (entry: SourceEntry, context: SourceContext) => {
  const label = `kubernetesFile[${entry.index}]`;
  const errors: ScrapeError[] = [];
  const items = new Map<string, ScrapedItem>();
  const rawSelector = record(entry.spec.selector);
  const labels = parseLabelSelector(text(rawSelector.labelSelector));
  if (labels === null) errors.push({ where: `${label} selector`, message: 'labelSelector: only name=value pairs separated by commas are understood' });
  const selector: Selector = {
    labels: labels ?? {},
    ...(text(rawSelector.namespace) === undefined ? {} : { namespace: text(rawSelector.namespace) }),
    ...(text(rawSelector.kind) === undefined ? {} : { kind: text(rawSelector.kind) }),
    ...(text(rawSelector.name) === undefined ? {} : { name: text(rawSelector.name) }),
  };
  const files = (Array.isArray(entry.spec.files) ? entry.spec.files : []).map(record);
  if (files.length === 0) errors.push({ where: label, message: 'no files: give files[].path' });
  if (context.roots.length === 0) errors.push({ where: label, message: 'no folder may be read: the server has no scrape roots (OPSDECK_SCRAPE_ROOTS)' });

  for (const file of context.roots.length === 0 ? [] : files) {
    const declared = text(file.format)?.toLowerCase();
    for (const wanted of strings(file.path)) {
      if (context.signal.aborted) {
        errors.push({ where: label, message: 'the run was stopped before every file was read' });
        return { items: [...items.values()], relationships: [], changes: [], errors, complete: false };
      }
      const where = `${label} ${shownSpecPath(wanted, context.roots)}`;
      try {
        const real = await locate(wanted, context.roots);
        const format = declared === 'json' || (declared === undefined && path.extname(real).toLowerCase() === '.json') ? 'json' : 'yaml';
        const documents = parseDocuments(await readBounded(real), format);
        const source = fileSource(real, context.roots);
        const objects = documents.flatMap((document) => {
          const body = record(document);
          return text(body.kind)?.endsWith('List') === true && Array.isArray(body.items) ? body.items.map(record) : [body];
        });
        for (const body of objects) {
          if (!matches(selector, text(body.kind) ?? '', body)) continue;
          const item = toItem(body, source, format);
          if (item !== null) items.set(`${item.type}\u0000${item.externalId}`, item);
        }
      } catch (error) {
        errors.push({ where, message: fileErrorMessage(error, context.roots) });
      }
    }
  }
  return { items: [...items.values()], relationships: [], changes: [], errors, complete: errors.length === 0 };
};
