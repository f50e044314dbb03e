import { parseAllDocuments } from 'yaml';
import { AppError } from '../../platform/errors';
import { applyErrors, locationOf } from './apply-errors';

/** One kind this server applies: the table its rows live in and the apiVersions Mission Control publishes it under. */
export interface ApplyKind {
  kind: string;
  table: 'canaries' | 'config_scrapers' | 'playbooks' | 'topologies' | 'notifications' | 'connections';
  apiVersions: readonly string[];
  /** Tables with a labels column take metadata.labels; those with a schedule column take spec.schedule. */
  labels: boolean;
  schedule: boolean;
  /** `spec`: the document's spec is stored whole in the spec column; otherwise it is mapped onto the table's columns. */
  stored: 'spec' | 'notification' | 'connection';
}

export const APPLY_KINDS: readonly ApplyKind[] = [
  { kind: 'Connection', table: 'connections', apiVersions: ['mission-control.flanksource.com/v1'], labels: false, schedule: false, stored: 'connection' },
  { kind: 'Canary', table: 'canaries', apiVersions: ['canaries.flanksource.com/v1'], labels: true, schedule: true, stored: 'spec' },
  { kind: 'ScrapeConfig', table: 'config_scrapers', apiVersions: ['configs.flanksource.com/v1'], labels: true, schedule: true, stored: 'spec' },
  { kind: 'Playbook', table: 'playbooks', apiVersions: ['mission-control.flanksource.com/v1'], labels: false, schedule: false, stored: 'spec' },
  { kind: 'Topology', table: 'topologies', apiVersions: ['canaries.flanksource.com/v1'], labels: true, schedule: true, stored: 'spec' },
  { kind: 'Notification', table: 'notifications', apiVersions: ['mission-control.flanksource.com/v1'], labels: false, schedule: false, stored: 'notification' },
];

const SUPPORTED = APPLY_KINDS.map((k) => `${k.kind} (${k.apiVersions.join(', ')})`).join(', ');
const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const METADATA = new Set(['name', 'namespace', 'labels', 'annotations', 'uid', 'resourceVersion', 'generation', 'creationTimestamp']);
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export interface ApplyFile {
  path: string | null;
  content: string;
}

export interface ApplyDocument {
  file: string | null;
  /** 1-based, within its file. */
  index: number;
  kind: ApplyKind;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  /** The document as given, for the digest that tells an unchanged re-apply. */
  raw: Record<string, unknown>;
}

/** A document that could not be read as a resource, with the coded refusal naming where. */
export interface RefusedDocument {
  file: string | null;
  index: number;
  error: AppError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map of strings; `scalars` also takes numbers and booleans (written unquoted in YAML) as their text. */
function stringMap(value: unknown, field: string, at: (field: string) => string, scalars = false): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw applyErrors.document(at(field), `${field} must be a map of strings`);
  const read: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    const scalar = scalars && (typeof entry === 'number' || typeof entry === 'boolean');
    if (typeof entry !== 'string' && !scalar) throw applyErrors.document(at(`${field}.${key}`), `${field}.${key} must be a string`);
    read[key] = String(entry);
  }
  return read;
}

/** Kubernetes' rules on a resource's shape, then the kind and apiVersion this server applies. */
function readDocument(value: unknown, file: string | null, index: number): ApplyDocument {
  const at = (field: string | null) => locationOf(file, index, field);
  if (!isRecord(value)) throw applyErrors.document(at(null), 'a document must be a map with apiVersion, kind, metadata and spec');
  for (const key of Object.keys(value)) if (!TOP_LEVEL.has(key)) throw applyErrors.document(at(key), `${key} is not a field of a resource`);
  const { apiVersion, kind, metadata, spec } = value;
  if (typeof apiVersion !== 'string' || apiVersion === '') throw applyErrors.document(at('apiVersion'), 'apiVersion is required');
  if (typeof kind !== 'string' || kind === '') throw applyErrors.document(at('kind'), 'kind is required');
  const known = APPLY_KINDS.find((k) => k.kind === kind);
  if (known === undefined || !known.apiVersions.includes(apiVersion)) throw applyErrors.kind(at('kind'), kind, apiVersion, SUPPORTED);
  if (!isRecord(metadata)) throw applyErrors.document(at('metadata'), 'metadata is required');
  for (const key of Object.keys(metadata)) if (!METADATA.has(key)) throw applyErrors.document(at(`metadata.${key}`), `metadata.${key} is not applied by this server`);
  const { name, namespace } = metadata;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 253) {
    throw applyErrors.document(at('metadata.name'), 'metadata.name is required: lower-case letters, digits, - and .');
  }
  if (namespace !== undefined && (typeof namespace !== 'string' || !NAME.test(namespace))) {
    throw applyErrors.document(at('metadata.namespace'), 'metadata.namespace must be lower-case letters, digits, - and .');
  }
  const labels = stringMap(metadata.labels, 'metadata.labels', at);
  // A kind without a labels column would store none of them: refused rather than dropped.
  if (!known.labels && Object.keys(labels).length > 0) {
    throw applyErrors.document(at('metadata.labels'), `metadata.labels are not applied to a ${kind}: it keeps no labels here`);
  }
  // Annotations change nothing here, and canary-checker's own fixtures write `debug: true` unquoted.
  stringMap(metadata.annotations, 'metadata.annotations', at, true);
  if (!isRecord(spec)) throw applyErrors.document(at('spec'), 'spec is required and must be a map');
  return { file, index, kind: known, name, namespace: namespace ?? 'default', labels, spec, raw: value };
}

/** Every `---` document of every file, each read as a resource or refused with the file, index and field it names. */
export function readApplyFiles(files: readonly ApplyFile[]): Array<ApplyDocument | RefusedDocument> {
  return files.flatMap((file) => {
    const documents = parseAllDocuments(file.content);
    const list = Array.isArray(documents) ? documents : [documents];
    return list.flatMap((document, position): Array<ApplyDocument | RefusedDocument> => {
      const index = position + 1;
      const [problem] = document.errors;
      if (problem !== undefined) {
        const line = problem.linePos?.[0]?.line;
        return [{ file: file.path, index, error: applyErrors.document(locationOf(file.path, index, line === undefined ? null : `line ${line}`), problem.message) }];
      }
      const value: unknown = document.toJS();
      // An empty document (a trailing `---`, a file of comments) holds nothing to apply, as kubectl reads it.
      if (value === null || value === undefined) return [];
      try {
        return [readDocument(value, file.path, index)];
      } catch (error) {
        if (error instanceof AppError) return [{ file: file.path, index, error }];
        throw error;
      }
    });
  });
}

export function isRefused(document: ApplyDocument | RefusedDocument): document is RefusedDocument {
  return 'error' in document;
}
