import { useParams } from 'react-router';
import { DetailSkeleton } from '@/components/detail-page/detail-page';
import { QueryError } from '@/components/status/query-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useResourceQuery } from '@/lib/settings-resources/api/get-resource';
import { ResourceDetailTabs } from '@/lib/settings-resources/components/resource-detail-page';
import { EMPTY_RESOURCES_MESSAGE } from '@/lib/settings-resources/components/resource-list-page';
import { SettingsBreadcrumb } from '@/lib/settings-resources/components/settings-breadcrumb';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { integrationOrigin } from '../integration-source';
import { integrationTypeInfo, INTEGRATIONS_PATH, INTEGRATIONS_TITLE } from '../integration-types';
import { IntegrationSourceBadge } from './integration-source-badge';

const BREADCRUMB = { table: 'integrations', title: INTEGRATIONS_TITLE };
const UNKNOWN_TYPE = 'Unknown type';

function IntegrationDetail({ kind, id }: { kind: SettingsResourceKind; id: string }) {
  const resource = useResourceQuery(kind, id);
  useDocumentTitle(resource.data?.name ?? kind.singular);
  const origin = resource.data ? integrationOrigin(resource.data) : null;

  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <SettingsBreadcrumb kind={BREADCRUMB} current={resource.data?.name ?? ''} />
        {origin !== null && origin.kind !== 'ui' && <IntegrationSourceBadge origin={origin} />}
      </div>
      {resource.isPending ? (
        <DetailSkeleton />
      ) : resource.isError ? (
        <QueryError subject={kind.singular} error={resource.error} onRetry={() => void resource.refetch()} />
      ) : resource.data === null ? (
        <p className="py-8 text-center text-sm text-gray-500">{EMPTY_RESOURCES_MESSAGE}</p>
      ) : (
        <>
          {origin !== null && origin.kind !== 'ui' && (
            <p role="note" className="rounded-md bg-gray-50 p-3 text-sm text-gray-700 ring-1 ring-gray-200">
              This {kind.singular.toLowerCase()} is defined by its source ({origin.label}); change it there. It is shown read-only here.
            </p>
          )}
          <ResourceDetailTabs
            key={resource.data.updated_at}
            kind={kind}
            resource={resource.data}
            returnTo={INTEGRATIONS_PATH}
            readOnly={origin !== null && origin.kind !== 'ui'}
          />
        </>
      )}
    </>
  );
}

/**
 * /settings/integrations/{type}/{id} (spec 001 §2.7): the Spec and Job History tabs of the topology, scraper or log
 * backend behind an integration, returning to the integrations list after an update or delete.
 */
export function IntegrationDetailPage() {
  const { type = '', id = '' } = useParams();
  const info = integrationTypeInfo(type);

  return (
    <section className="flex min-h-0 flex-col gap-4 p-4">
      {info === null ? <UnknownType /> : <IntegrationDetail key={`${type}:${id}`} kind={info.kind} id={id} />}
    </section>
  );
}

function UnknownType() {
  useDocumentTitle(UNKNOWN_TYPE);
  return (
    <>
      <SettingsBreadcrumb kind={BREADCRUMB} current={UNKNOWN_TYPE} />
      <p role="alert" className="py-8 text-center text-sm text-gray-600">
        {UNKNOWN_TYPE}
      </p>
    </>
  );
}
