import { INCIDENT_SEVERITIES, INCIDENT_STATUSES, INCIDENT_TYPES, type IncidentSeverity, type IncidentStatus, type IncidentType } from '@opsdeck/shared';
import type { DropdownOption } from '@/components/dropdown/dropdown';

const TYPE_LABELS: Record<IncidentType, string> = {
  cost: 'Cost',
  availability: 'Availability',
  performance: 'Performance',
  security: 'Security',
  integration: 'Integration',
  compliance: 'Compliance',
  technicalDebt: 'Technical Debt',
  reliability: 'Reliability',
};

export function incidentTypeLabel(type: string): string {
  return (TYPE_LABELS as Record<string, string | undefined>)[type] ?? type;
}

/** 'investigating' → 'Investigating'. */
export function capitalize(value: string): string {
  return value === '' ? value : `${value.charAt(0).toUpperCase()}${value.slice(1)}`;
}

export const incidentTypeOptions: readonly DropdownOption<IncidentType>[] = INCIDENT_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] }));

export const incidentSeverityOptions: readonly DropdownOption<IncidentSeverity>[] = INCIDENT_SEVERITIES.map((severity) => ({
  value: severity,
  label: capitalize(severity),
}));

export const incidentStatusOptions: readonly DropdownOption<IncidentStatus>[] = INCIDENT_STATUSES.map((status) => ({
  value: status,
  label: capitalize(status),
}));
