import type { Evidence, StoredEvidenceType } from '../api/types';

const TYPE_LABELS: Record<StoredEvidenceType, string> = {
  log: 'Log',
  config: 'Config',
  topology: 'Component',
  check: 'Health Check',
  config_analysis: 'Config Insight',
  config_change: 'Config Change',
  comment: 'Comment',
  alert: 'Alert',
};

export function evidenceTypeLabel(type: StoredEvidenceType): string {
  return TYPE_LABELS[type];
}

/** What an evidence is about: its linked item's name, else its description or inner comment. */
export function evidenceTitle(evidence: Evidence): string {
  const linked =
    evidence.check?.name ??
    evidence.alert?.name ??
    evidence.config?.name ??
    evidence.component?.name ??
    evidence.config_analysis?.summary ??
    evidence.config_analysis?.analyzer ??
    evidence.config_change?.summary ??
    evidence.config_change?.change_type ??
    evidence.evidence?.configName;
  return linked ?? evidence.description ?? evidence.evidence?.comment ?? TYPE_LABELS[evidence.type];
}

/** Where the linked item lives in the console, when it has a page. */
export function evidenceHref(evidence: Evidence): string | null {
  if (evidence.config_id) return `/catalog/${evidence.config_id}`;
  if (evidence.config_analysis) return `/catalog/${evidence.config_analysis.config_id}`;
  if (evidence.config_change) return `/catalog/${evidence.config_change.config_id}`;
  if (evidence.component_id) return `/topology/${evidence.component_id}`;
  if (evidence.check_id) return `/health?${new URLSearchParams({ checkId: evidence.check_id, timeRange: '1d' }).toString()}`;
  return null;
}

/** A firing alert reads as unhealthy and a resolved one as healthy, like the checks beside it. */
function alertHealth(status: string | undefined): string | undefined {
  if (status === undefined) return undefined;
  return status === 'firing' ? 'unhealthy' : 'healthy';
}

/** The live state of the linked item, for a health dot. */
export function evidenceStatus(evidence: Evidence): string | null {
  return evidence.check?.status ?? alertHealth(evidence.alert?.status) ?? evidence.component?.status ?? evidence.config?.health ?? evidence.config_analysis?.status ?? null;
}
