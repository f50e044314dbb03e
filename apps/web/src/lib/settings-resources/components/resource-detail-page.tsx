import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { DetailSkeleton, DETAIL_TAB_CLASS } from '@/components/detail-page/detail-page';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { appliedOrigin, owningTopologyId } from '@/lib/resource-origin/resource-origin';
import { useDeleteResource } from '../api/delete-resource';
import { useResourceQuery } from '../api/get-resource';
import type { SettingsResource, SettingsResourceInput } from '../api/types';
import { useUpdateResource } from '../api/update-resource';
import { resourceListPath, type SettingsResourceKind, type SettingsTab } from '../settings-resource-kind';
import { JobHistoryTab } from './job-history-tab';
import { EMPTY_RESOURCES_MESSAGE } from './resource-list-page';
import { ResourceForm } from './resource-form';
import { SettingsBreadcrumb } from './settings-breadcrumb';
import { useDocumentTitle } from '@/lib/use-document-title';

const TAB_LABELS: Record<SettingsTab, string> = { spec: 'Spec', manageTeam: 'Manage Team', jobHistory: 'Job History' };

export interface ResourceDetailTabsProps {
  kind: SettingsResourceKind;
  resource: SettingsResource;
  /** Where a successful update or delete leads; the kind's list by default. */
  returnTo?: string;
  /** Shows the resource without edit controls, such as one another source owns. */
  readOnly?: boolean;
}

/**
 * The edit tabs of one resource (Spec, Job History and the kind's own panels, such as a team's Manage Team), shared by
 * the generic detail page and integrations.
 */
export function ResourceDetailTabs({ kind, resource, returnTo, readOnly = false }: ResourceDetailTabsProps) {
  const navigate = useNavigate();
  const { can } = usePermissions();
  const canWrite = !readOnly && can(kind.resource, 'write');
  const session = useSession();
  const updateResource = useUpdateResource();
  const deleteResource = useDeleteResource();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const Form = kind.form ?? ResourceForm;
  const ManageTeamPanel = kind.panels?.manageTeam;
  const backToList = () => void navigate(returnTo ?? resourceListPath(kind));

  const handleUpdate = (input: SettingsResourceInput) => {
    updateResource.mutate({ kind, id: resource.id, input, createdBy: session.data?.person.id ?? null }, { onSuccess: backToList });
  };

  const handleDelete = () => {
    deleteResource.mutate({ kind, id: resource.id, name: resource.name }, { onSuccess: backToList });
  };

  return (
    <Tabs.Root defaultValue={kind.tabs[0]} className="flex flex-col gap-3">
      <Tabs.List aria-label={`${kind.singular} tabs`} className="flex flex-wrap border-b border-gray-200">
        {kind.tabs.map((tab) => (
          <Tabs.Trigger key={tab} value={tab} className={DETAIL_TAB_CLASS}>
            {TAB_LABELS[tab]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="spec">
        <Form
          kind={kind}
          resource={resource}
          canWrite={canWrite}
          isSaving={updateResource.isPending || deleteResource.isPending}
          onSubmit={handleUpdate}
          onDelete={() => setIsConfirmingDelete(true)}
          saveError={updateResource.error ?? deleteResource.error}
        />
      </Tabs.Content>
      {kind.tabs.includes('manageTeam') && ManageTeamPanel !== undefined && (
        <Tabs.Content value="manageTeam">
          <ManageTeamPanel resource={resource} readOnly={readOnly} />
        </Tabs.Content>
      )}
      <Tabs.Content value="jobHistory">
        <JobHistoryTab resourceId={resource.id} />
      </Tabs.Content>
      <ConfirmDialog
        open={isConfirmingDelete}
        onOpenChange={setIsConfirmingDelete}
        title={`Delete ${kind.singular}`}
        message={`Are you sure you want to delete '${resource.name}'?`}
        confirmLabel="Delete"
        isPending={deleteResource.isPending}
        onConfirm={handleDelete}
      />
    </Tabs.Root>
  );
}

/** The detail tabs, read-only with a note for a resource applied from a manifest (ADR 0074). */
function AppliedResourceTabs({ kind, resource }: { kind: SettingsResourceKind; resource: SettingsResource }) {
  const topologyId = owningTopologyId(resource.source);
  if (topologyId !== null) {
    return (
      <>
        <p role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This {kind.singular.toLowerCase()} is kept by an inline check of a topology: change it in the{' '}
          <Link to={`/settings/topologies/${topologyId}`} className="text-blue-700 underline">
            topology&apos;s spec
          </Link>
          . It is read-only here, and the topology&apos;s next run puts back any change made to it elsewhere.
        </p>
        <ResourceDetailTabs key={resource.updated_at} kind={kind} resource={resource} readOnly />
      </>
    );
  }
  const applied = appliedOrigin(resource.source);
  if (applied === null) return <ResourceDetailTabs key={resource.updated_at} kind={kind} resource={resource} />;
  return (
    <>
      <p role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        This {kind.singular.toLowerCase()} was applied from {applied}: change the manifest and apply it again. It is read-only here.
      </p>
      <ResourceDetailTabs key={resource.updated_at} kind={kind} resource={resource} readOnly />
    </>
  );
}

export interface ResourceDetailPageProps {
  kind: SettingsResourceKind;
}

/** /settings/{table}/{id} (spec 002 §2.2 'Generic detail/edit page'). */
export function ResourceDetailPage({ kind }: ResourceDetailPageProps) {
  const { id = '' } = useParams();
  const resource = useResourceQuery(kind, id);
  useDocumentTitle(resource.data?.name ?? kind.singular);

  return (
    <section className="flex min-h-0 flex-col gap-4 p-4">
      <SettingsBreadcrumb kind={kind} current={resource.data?.name ?? ''} />
      {resource.isPending ? (
        <DetailSkeleton />
      ) : resource.isError ? (
        <QueryError subject={kind.singular} error={resource.error} onRetry={() => void resource.refetch()} />
      ) : resource.data === null ? (
        <p className="py-8 text-center text-sm text-gray-500">{EMPTY_RESOURCES_MESSAGE}</p>
      ) : (
        <AppliedResourceTabs kind={kind} resource={resource.data} />
      )}
    </section>
  );
}
