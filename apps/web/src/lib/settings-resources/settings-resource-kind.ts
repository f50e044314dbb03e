import type { ComponentType, ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { Resource } from '@opsdeck/shared';
import type { JsonSchema } from '@/components/code-editor/code-editor';
import type { SettingsResource, SettingsResourceInput, SettingsResourceRow } from './api/types';

export type SettingsColumn =
  | 'name'
  | 'source'
  | 'schedule'
  | 'namespace'
  | 'job_status'
  | 'last_runtime'
  | 'job_last_failed'
  | 'tags'
  | 'created_at'
  | 'updated_at'
  | 'created_by';

export type SettingsTab = 'spec' | 'manageTeam' | 'jobHistory';

/**
 * Where a kind's rows are written. A service validates what the data API cannot (a canary spec) and acts on the
 * change (rescheduling), so kinds that have one go through it; the others write their table through the data API.
 */
export type ResourceService = { kind: 'service'; path: string } | { kind: 'data-api' };

/** The server's limits on a settings resource's name and namespace (apps/server health-plugin.ts `canaryBody`). */
export const RESOURCE_LIMITS = { name: 255, namespace: 255 } as const;

export interface ResourceFormProps {
  kind: SettingsResourceKind;
  /** The resource being edited; without one the form creates a resource. */
  resource?: SettingsResource;
  canWrite: boolean;
  isSaving: boolean;
  onSubmit: (input: SettingsResourceInput) => void;
  onDelete?: () => void;
  onCancel?: () => void;
  /** The last save's failure, shown above the buttons as well as in its toast so it stays while the user fixes it. */
  saveError?: unknown;
}

export interface ResourcePanelProps {
  resource: SettingsResource;
  /** Shown without edit controls, such as a resource another source owns. */
  readOnly: boolean;
}

/**
 * Everything the generic list and detail pages need to know about one settings table. The feature that owns the table
 * declares it; the parts only that feature can draw (a spec form, a tab's panel) are given by the feature's own pages,
 * so the code behind them loads with those pages.
 */
export interface SettingsResourceKind {
  table: string;
  title: string;
  singular: string;
  resource: Resource;
  /** The view the list reads, with job status columns. */
  listView: string;
  service: ResourceService;
  tabs: readonly SettingsTab[];
  /** Columns the list page hides (spec 002 §2.2). */
  hiddenColumns?: readonly SettingsColumn[];
  /** The JSON Schema the spec editor checks the spec against, built when a form opens; none for plain YAML. */
  specSchema?: () => JsonSchema;
  /** What the editor of a new resource starts with, so the user edits a working example instead of a blank. */
  newSpec?: Readonly<Record<string, unknown>>;
  /** False for tables whose form has no Namespace field (a log backend is name, labels and spec); shown by default. */
  hasNamespace?: boolean;
  /**
   * What is wrong with a spec beyond what the editor's JSON Schema can say (a rule across fields), one message each.
   * A kind that has it holds its submit button back until the form is valid and this answers nothing.
   */
  specProblems?: (spec: Readonly<Record<string, unknown>>) => string[];
  /** Fields an update never sends, so the server keeps what it recorded. */
  updateOmits?: readonly string[];
  /** False for tables without labels (teams): the form has no Labels field. Shown by default. */
  hasLabels?: boolean;
  /** Fields of the generic form that the kind's table lacks (teams have no namespace): never sent, on create or update. */
  absentFields?: readonly string[];
  /** An icon before the name in the list, drawn from the row (a scraper's source type). */
  nameIcon?: (row: SettingsResourceRow) => ReactNode;
  /** A reading of the spec shown under the editor as it is typed (an incident rule's matches and grouping). */
  specSummary?: ComponentType<{ spec: Record<string, unknown> }>;
  /** The Spec tab's form in place of the generic one (a health check's form beside its YAML). */
  form?: ComponentType<ResourceFormProps>;
  /** Columns of the kind's own, shown after the name (a team's members and channels). */
  extraColumns?: ReadonlyArray<ColumnDef<SettingsResourceRow> & { id: string }>;
  /** The panels of tabs other than Spec and Job History. */
  panels?: Partial<Record<Exclude<SettingsTab, 'spec' | 'jobHistory'>, ComponentType<ResourcePanelProps>>>;
}

/** `body` without the fields the kind's table lacks. */
export function withoutAbsentFields(kind: SettingsResourceKind, body: Record<string, unknown>): Record<string, unknown> {
  const absent = new Set(kind.absentFields ?? []);
  return Object.fromEntries(Object.entries(body).filter(([key]) => !absent.has(key)));
}

export function hiddenColumns(kind: SettingsResourceKind): ReadonlySet<SettingsColumn> {
  return new Set(kind.hiddenColumns ?? []);
}

export function resourceListPath(kind: Pick<SettingsResourceKind, 'table'>): string {
  return `/settings/${kind.table}`;
}
