import { createContext, useContext, type ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDate, formatRelativeTime } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { JobStatusCell } from '@/components/job-status/job-status-cell';
import type { Person } from '@/lib/api/people';
import { NO_AGENT_ID, type ResourceOrigin } from '@/lib/resource-origin/resource-origin';

/** The fields of a status-view row that the generic resource list (spec 002 §2.2) shows. */
export interface ResourceListRow extends ResourceOrigin {
  name: string;
  schedule?: string | null;
  last_runtime?: string | null;
  job_last_failed?: string | null;
  job_status?: string | null;
  job_details?: unknown;
}

export type ResourceColumnId = 'name' | 'source' | 'schedule' | 'job_status' | 'last_runtime' | 'job_last_failed' | 'created_at' | 'created_by';

export type ResourceColumns<T> = { [Id in ResourceColumnId]: ColumnDef<T> & { id: Id } };

export interface ResourceColumnOptions<T> {
  /** Drawn before the name, such as a scraper's type icon. */
  nameIcon?: (row: T) => ReactNode;
  /** What the job details dialog shows; the raw details when not given. */
  renderJobDetails?: (details: unknown) => ReactNode;
}

/**
 * The creators behind the Created By avatars. A context rather than a column argument: the table renders each cell
 * function as a component, so new columns when the people load would remount every cell and close an open dialog.
 */
export const CreatorsContext = createContext<ReadonlyMap<string, Person>>(new Map());

function CreatorAvatar({ personId }: { personId: string | null }) {
  const people = useContext(CreatorsContext);
  const person = personId === null ? undefined : people.get(personId);
  return person ? <Avatar name={person.name} src={person.avatar} size="sm" /> : null;
}

function relative(value: string | null | undefined): string {
  return value ? formatRelativeTime(value) : '';
}

/** The generic list's columns, by id, for a list to pick and order alongside its own. */
export function resourceColumns<T extends ResourceListRow>({ nameIcon, renderJobDetails }: ResourceColumnOptions<T> = {}): ResourceColumns<T> {
  return {
    name: {
      id: 'name',
      header: 'Name',
      size: 240,
      cell: ({ row }) => {
        const { agent, agent_id: agentId } = row.original;
        return (
          <span className="inline-flex max-w-full min-w-0 items-center gap-2">
            {nameIcon?.(row.original)}
            <span className="truncate">{row.original.name}</span>
            {agent && agentId !== NO_AGENT_ID && <span className="shrink-0 rounded bg-purple-100 px-1.5 py-0.5 text-xs text-purple-800">{agent.name}</span>}
          </span>
        );
      },
    },
    source: { id: 'source', header: 'Source', size: 110, cell: ({ row }) => row.original.source ?? '' },
    schedule: { id: 'schedule', header: 'Schedule', size: 120, cell: ({ row }) => row.original.schedule ?? '' },
    job_status: {
      id: 'job_status',
      header: 'Job Status',
      size: 170,
      cell: ({ row }) => (
        <JobStatusCell resourceName={row.original.name} status={row.original.job_status} details={row.original.job_details} renderDetails={renderJobDetails} />
      ),
    },
    last_runtime: { id: 'last_runtime', header: 'Last Run', size: 100, cell: ({ row }) => relative(row.original.last_runtime) },
    job_last_failed: { id: 'job_last_failed', header: 'Last Failed', size: 100, cell: ({ row }) => relative(row.original.job_last_failed) },
    created_at: { id: 'created_at', header: 'Created', size: 140, cell: ({ row }) => formatDate(row.original.created_at) },
    created_by: { id: 'created_by', header: 'Created By', size: 100, cell: ({ row }) => <CreatorAvatar personId={row.original.created_by} /> },
  };
}
