import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { clsx } from 'clsx';
import { ChevronRight, Download } from 'lucide-react';
import { DEBOUNCE_MS, INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { capitalize } from './incident-field-options';
import { QueryError } from '@/components/status/query-error';
import { SeverityBadge } from '@/components/status/severity-badge';
import { usePermissions } from '@/lib/auth/permissions';
import { useExportPostmortem } from '../api/export-postmortem';
import { useIncidentQuery } from '../api/get-incident';
import { useUpdateIncident } from '../api/update-incident';
import type { IncidentDetail } from '../api/types';
import { ActionPlanTab } from './action-plan-tab';
import { CommentsTab } from './comments-tab';
import { ComponentChips } from './component-chips';
import { IncidentStatusControl } from './incident-status-control';
import { SidePanel } from './side-panel';
import { useDebouncedSave } from './use-debounced-save';
import { useDocumentTitle } from '@/lib/use-document-title';

type TabName = 'comments' | 'action-plan';
const TAB_PARAM = 'tab';

function Breadcrumb({ current }: { current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm text-gray-600">
      <Link to="/incidents" className="hover:text-gray-900 hover:underline">
        Incidents
      </Link>
      <ChevronRight aria-hidden="true" className="size-4" />
      <span aria-current="page" className="text-gray-900">
        {current}
      </span>
    </nav>
  );
}

function DetailSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading incident" data-testid="incident-skeleton" className="flex flex-col gap-3 p-4">
      <span className="h-4 w-40 animate-pulse rounded bg-gray-200" />
      <span className="h-7 w-2/3 animate-pulse rounded bg-gray-200" />
      <div className="grid grid-cols-[1fr_22rem] gap-4">
        <span className="h-64 animate-pulse rounded bg-gray-200" />
        <span className="h-64 animate-pulse rounded bg-gray-200" />
      </div>
    </div>
  );
}

function TitleEditor({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const updateIncident = useUpdateIncident(incident.id);
  const [title, setTitle] = useState(incident.title);
  const save = useDebouncedSave((value: string) => updateIncident.mutate({ title: value }), DEBOUNCE_MS.fieldEdit);
  // The title wraps rather than truncates: on a phone a cut title reads as another incident ("Nightly backup failing (w").
  if (!canWrite) return <h1 className="min-w-0 flex-1 basis-64 text-lg font-semibold break-words text-gray-900">{incident.title}</h1>;
  const isEmpty = title.trim() === '';
  return (
    <div className="min-w-0 flex-1 basis-64">
      <h1>
        {/* A one-line text that wraps: a textarea sized to its content, whose Enter does not start a new line. */}
        <textarea
          aria-label="Incident title"
          aria-invalid={isEmpty || undefined}
          aria-describedby={isEmpty ? 'incident-title-error' : undefined}
          value={title}
          rows={1}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              event.currentTarget.blur();
            }
          }}
          onChange={(event) => {
            const next = event.target.value.replace(/[\r\n]+/g, ' ');
            setTitle(next);
            // The title is required: an emptied box stays open with the message, and nothing typed before it is sent.
            if (next.trim() === '') save.cancel();
            else save.schedule(next.trim());
          }}
          onBlur={save.flush}
          className={clsx(
            'field-sizing-content w-full resize-none rounded px-1 py-0.5 text-lg font-semibold break-words text-gray-900 hover:ring-1 hover:ring-gray-300 focus:outline-2 focus:outline-blue-500',
            isEmpty && 'ring-1 ring-red-500',
          )}
        />
      </h1>
      {isEmpty && (
        <p id="incident-title-error" role="alert" className="mt-0.5 px-1 text-xs text-red-700">
          {INCIDENT_MESSAGES.fieldRequired}
        </p>
      )}
    </div>
  );
}

function IncidentView({ incident }: { incident: IncidentDetail }) {
  const { can } = usePermissions();
  const [params, setParams] = useSearchParams();
  const exportPostmortem = useExportPostmortem();
  const tab: TabName = params.get(TAB_PARAM) === 'action-plan' ? 'action-plan' : 'comments';
  const canWriteIncident = can('incident', 'write');
  const canWriteEvidence = can('evidences', 'write');

  const handleTab = (next: string) => {
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next === 'action-plan') updated.set(TAB_PARAM, next);
        else updated.delete(TAB_PARAM);
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <div className="flex flex-col gap-3 p-4">
      <Breadcrumb current={incident.incident_id} />
      <header className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm text-gray-500">{incident.incident_id}</span>
        <TitleEditor key={incident.id} incident={incident} canWrite={canWriteIncident} />
        {incident.severity && <SeverityBadge severity={incident.severity} />}
        <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs font-medium text-gray-700" data-testid="incident-status">
          {capitalize(incident.status)}
        </span>
        <IncidentStatusControl incident={incident} canWrite={canWriteIncident} variant="button" />
        <Button
          variant="secondary"
          isPending={exportPostmortem.isPending}
          onClick={() => exportPostmortem.mutate({ incidentId: incident.id, displayId: incident.incident_id })}
        >
          <Download aria-hidden="true" className="size-4" />
          Export
        </Button>
      </header>
      {incident.description && <p className="text-sm whitespace-pre-wrap text-gray-700">{incident.description}</p>}
      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-3">
          <ComponentChips incident={incident} />
          <Tabs.Root value={tab} onValueChange={handleTab} className="flex flex-col gap-3">
            <Tabs.List aria-label="Incident" className="flex gap-1 border-b border-gray-200">
              {(['comments', 'action-plan'] as const).map((name) => (
                <Tabs.Trigger
                  key={name}
                  value={name}
                  className="-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm text-gray-600 hover:text-gray-900 data-[state=active]:border-blue-600 data-[state=active]:font-medium data-[state=active]:text-blue-700"
                >
                  {name === 'comments' ? INCIDENT_MESSAGES.tabComments : INCIDENT_MESSAGES.tabActionPlan}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="comments">
              <CommentsTab incident={incident} canComment={can('comments', 'write')} canWriteEvidence={canWriteEvidence} />
            </Tabs.Content>
            <Tabs.Content value="action-plan">
              <ActionPlanTab incident={incident} canWrite={canWriteIncident && canWriteEvidence} />
            </Tabs.Content>
          </Tabs.Root>
        </div>
        <SidePanel incident={incident} canWriteIncident={canWriteIncident} canWriteEvidence={canWriteEvidence} canWriteResponders={can('responder', 'write')} />
      </div>
    </div>
  );
}

/** /incidents/{id}: breadcrumb, header, component chips, the two tabs and the side panel. */
export function IncidentDetailPage() {
  const { id = '' } = useParams();
  const incident = useIncidentQuery(id);
  useDocumentTitle(incident.data ? `${incident.data.incident_id} ${incident.data.title}` : 'Incident');
  const { isReady } = usePermissions();
  // Until the roles are known the page would render read-only and then change under the user's hands.
  if (incident.isPending || !isReady) return <DetailSkeleton />;
  if (incident.isError) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <Breadcrumb current="Incident" />
        <QueryError subject="The incident" error={incident.error} onRetry={() => void incident.refetch()} />
      </div>
    );
  }
  if (incident.data === null) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <Breadcrumb current="Incident" />
        <p className="mt-8 text-center text-gray-600">{INCIDENT_MESSAGES.notFound}</p>
      </div>
    );
  }
  return <IncidentView incident={incident.data} />;
}
