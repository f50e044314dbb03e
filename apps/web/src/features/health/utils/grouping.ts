import type { CheckSummary } from '../api/types';

export const NO_GROUPING = 'none';
export const DEFAULT_TAB_BY = 'namespace';
export const AGENT_TAB = 'agent';
export const ALL_TAB = 'All';
/** The agent value of a check run by this server, as the server names its Agent tab. */
export const LOCAL_AGENT = 'local';
/** The value of a check lacking the Tab By field (namespace or label), as the server names its tab. */
export const MISSING_VALUE = 'none';

export interface FieldOption {
  value: string;
  label: string;
}

/** Spec 001 §2.2: fixed choices, then one per label key found on the checks. */
export function groupByOptions(labelKeys: readonly string[]): FieldOption[] {
  const fixed: FieldOption[] = [
    { value: NO_GROUPING, label: 'No Grouping' },
    { value: 'canary_name', label: 'Group Name' },
    { value: 'name', label: 'Name' },
    { value: 'description', label: 'Description' },
    { value: 'type', label: 'Type' },
  ];
  const taken = new Set(fixed.map((option) => option.value));
  return [...fixed, ...labelKeys.filter((key) => !taken.has(key)).map((key) => ({ value: key, label: key }))];
}

/** Namespace, each label key, and Agent. */
export function tabByOptions(labelKeys: readonly string[]): FieldOption[] {
  const reserved = new Set([DEFAULT_TAB_BY, AGENT_TAB]);
  return [
    { value: DEFAULT_TAB_BY, label: 'namespace' },
    ...labelKeys.filter((key) => !reserved.has(key)).map((key) => ({ value: key, label: key })),
    { value: AGENT_TAB, label: 'Agent' },
  ];
}

/**
 * The group a check falls in, as the server counts it: grouping by name uses the prefix before '/'. The server
 * returns the groups and their counts; the members are placed here from the rows it sent.
 */
export function groupKeyOf(check: CheckSummary, groupBy: string): string {
  switch (groupBy) {
    case 'canary_name':
      return check.canary_name;
    case 'name':
      return check.name.split('/')[0] ?? check.name;
    case 'description':
      return check.description ?? '';
    case 'type':
      return check.type;
    default:
      return check.labels[groupBy] ?? '';
  }
}

/** Labels whose every value is 'true' or 'false' get a toggle instead of a multi-select. */
export function isBooleanLabel(values: readonly string[]): boolean {
  return values.length > 0 && values.every((value) => value === 'true' || value === 'false');
}
