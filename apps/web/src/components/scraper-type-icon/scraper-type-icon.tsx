import { Boxes, Cloud, CloudCog, Database, FileCode, FileText, GitBranch, Globe, Puzzle, ShieldCheck, Ship, Workflow, type LucideIcon } from 'lucide-react';
import { clsx } from 'clsx';

/** Spec 001 §3: the source kinds a scraper spec may list, each under its own key. */
const KIND_ICONS: Readonly<Record<string, { icon: LucideIcon; label: string }>> = {
  file: { icon: FileText, label: 'File' },
  http: { icon: Globe, label: 'HTTP' },
  sql: { icon: Database, label: 'SQL' },
  kubernetes: { icon: Ship, label: 'Kubernetes' },
  kubernetesFile: { icon: FileCode, label: 'Kubernetes File' },
  aws: { icon: Cloud, label: 'AWS' },
  azure: { icon: CloudCog, label: 'Azure' },
  githubActions: { icon: GitBranch, label: 'GitHub Actions' },
  azureDevops: { icon: Workflow, label: 'Azure DevOps' },
  trivy: { icon: ShieldCheck, label: 'Trivy' },
  custom: { icon: Puzzle, label: 'Custom' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The source kinds a stored spec lists, in spec order. A Mission Control resource (`{kind: ScrapeConfig, spec}`) is
 * read through its `spec`, since users may paste one unchanged.
 */
export function scraperKinds(spec: unknown): string[] {
  if (!isRecord(spec)) return [];
  const body = isRecord(spec.spec) ? spec.spec : spec;
  return Object.keys(body).filter((key) => key in KIND_ICONS);
}

export interface ScraperTypeIconProps {
  spec: unknown;
  className?: string;
}

/** The icon of a scraper's first source kind, named for screen readers; a spec with several kinds says so. */
export function ScraperTypeIcon({ spec, className }: ScraperTypeIconProps) {
  const kinds = scraperKinds(spec);
  const first = kinds[0];
  const entry = first === undefined ? undefined : KIND_ICONS[first];
  const Icon = entry?.icon ?? Boxes;
  const label = kinds.length === 0 ? 'Scraper' : kinds.map((kind) => KIND_ICONS[kind]?.label ?? kind).join(', ');
  return <Icon role="img" aria-label={label} className={clsx('size-4 shrink-0 text-gray-500', className)} />;
}
