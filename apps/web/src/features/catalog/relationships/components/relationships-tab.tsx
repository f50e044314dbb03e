import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import { clsx } from 'clsx';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { TristateFilterDropdown } from '@/components/filters/tristate-filter-dropdown';
import { QueryError } from '@/components/status/query-error';
import { Switch } from '@/components/switch/switch';
import { usePermissions } from '@/lib/auth/permissions';
import { useConfigStatusesQuery, useConfigTypesQuery } from '../../api/get-catalog-lookups';
import { useConfigItemQuery } from '../api/get-config-item';
import { useManualLinksQuery } from '../api/get-manual-links';
import { useRelatedConfigsQuery, withoutExcluded } from '../api/get-related-configs';
import { useDeleteConfigLinkMutation } from '../api/delete-config-link';
import type { RelatedConfig } from '../api/types';
import {
  CONFIG_HEALTHS,
  GRAPH_CURVES,
  RELATIONSHIP_MAX_DEPTH,
  directionToggle,
  parseRelationshipParams,
  relatedConfigsArgs,
  type GraphCurve,
  type GraphLayoutDirection,
  type RelationshipView,
} from '../relationship-params';
import { useSearchUpdate } from '../../utils/use-search-update';
import { unlinkableIds } from '../unlinkable-ids';
import { RelationshipsTable } from './relationships-table';

const RelationshipsGraph = lazy(() => import('./relationships-graph').then((module) => ({ default: module.RelationshipsGraph })));

const HEALTH_OPTIONS = CONFIG_HEALTHS.map((health) => ({ value: health }));
const DEPTH_OPTIONS = Array.from({ length: RELATIONSHIP_MAX_DEPTH }, (_, index) => ({ value: String(index + 1), label: String(index + 1) }));
const CURVE_LABELS: Record<GraphCurve, string> = { bezier: 'Bezier', step: 'Step', straight: 'Straight' };

function ToggleLabel({ label, checked, onChange, disabled, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; hint?: string }) {
  return (
    <label className={clsx('flex items-center gap-1.5 text-sm', disabled ? 'text-gray-500' : 'text-gray-700')} title={hint}>
      <Switch checked={checked} onCheckedChange={onChange} label={label} disabled={disabled} />
      {label}
    </label>
  );
}

function Segmented<TValue extends string>({ label, options, value, onChange }: { label: string; options: ReadonlyArray<{ value: TValue; label: string }>; value: TValue; onChange: (value: TValue) => void }) {
  return (
    <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded-md ring-1 ring-gray-300 ring-inset">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={clsx(
            'h-8 px-2.5 text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500',
            option.value === value ? 'bg-blue-600 text-white' : 'bg-white text-gray-700 hover:bg-gray-50',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export interface RelationshipsTabProps {
  configId: string;
}

/** /catalog/{id}/relationships: the items linked to this one, as a table or a graph (spec 002 §2.1, §4). */
export function RelationshipsTab({ configId }: RelationshipsTabProps) {
  const [search, update] = useSearchUpdate();
  const params = useMemo(() => parseRelationshipParams(search), [search]);
  const args = useMemo(() => relatedConfigsArgs(configId, params), [configId, params]);
  const related = useRelatedConfigsQuery(args);
  const permissions = usePermissions();
  const canWrite = permissions.can('database', 'write');
  const manualLinks = useManualLinksQuery(configId, canWrite);
  const root = useConfigItemQuery(configId, params.view === 'graph');
  const types = useConfigTypesQuery();
  const statuses = useConfigStatusesQuery();
  const deleteLink = useDeleteConfigLinkMutation();
  const [pendingUnlink, setPendingUnlink] = useState<RelatedConfig | null>(null);

  const { type, status, health } = params;
  const items = useMemo(() => withoutExcluded(related.data ?? [], { type, status, health }), [related.data, type, status, health]);
  const unlinkable = useMemo(
    () => (canWrite ? unlinkableIds(configId, items, manualLinks.data ?? []) : new Set<string>()),
    [canWrite, configId, items, manualLinks.data],
  );
  const typeOptions = useMemo(() => (types.data ?? []).map((option) => ({ value: option.type })), [types.data]);
  const statusOptions = useMemo(() => (statuses.data ?? []).map((value) => ({ value })), [statuses.data]);

  const handleDirection = (toggle: 'outgoing' | 'incoming', checked: boolean) => {
    const change = directionToggle(params, toggle, checked);
    if (change !== null) update(change);
  };
  const handleUnlink = useCallback((item: RelatedConfig) => setPendingUnlink(item), []);
  const handleConfirmUnlink = () => {
    if (pendingUnlink === null) return;
    deleteLink.mutate({ configId, relatedId: pendingUnlink.id }, { onSettled: () => setPendingUnlink(null) });
  };

  const rootItem = root.data ?? { id: configId, name: 'This item', type: '', health: null, status: null, deleted_at: null };

  return (
    <section aria-label="Relationships" className="flex min-h-0 flex-col gap-2">
      <FilterBar
        label="Relationship filters"
        actions={
          <>
            <Segmented<RelationshipView>
              label="View"
              options={[
                { value: 'table', label: 'Table' },
                { value: 'graph', label: 'Graph' },
              ]}
              value={params.view}
              onChange={(view) => update({ view: view === 'table' ? null : view })}
            />
            <Button variant="ghost" aria-label="Refresh" onClick={() => void related.refetch()} disabled={related.isFetching}>
              <RefreshCw aria-hidden="true" className="size-4" />
            </Button>
          </>
        }
      >
        <ToggleLabel label="Outgoing" checked={params.outgoing} onChange={(checked) => handleDirection('outgoing', checked)} disabled={!params.incoming} hint={params.incoming ? undefined : 'Turn Incoming on to turn Outgoing off'} />
        <ToggleLabel label="Incoming" checked={params.incoming} onChange={(checked) => handleDirection('incoming', checked)} />
        <ToggleLabel label="Soft" checked={params.soft} onChange={(checked) => update({ soft: checked ? 'true' : null })} hint="Also follow links between items, not only the parent tree" />
        <TristateFilterDropdown label="Type" options={typeOptions} value={params.type} onChange={(value) => update({ type: value })} />
        <TristateFilterDropdown label="Health" options={HEALTH_OPTIONS} value={params.health} onChange={(value) => update({ health: value })} />
        <TristateFilterDropdown label="Status" options={statusOptions} value={params.status} onChange={(value) => update({ status: value })} />
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Depth
          <Dropdown
            label="Depth"
            options={DEPTH_OPTIONS}
            value={String(params.depth)}
            onChange={(value) => update({ depth: value === String(RELATIONSHIP_MAX_DEPTH) ? null : value })}
            className="min-w-16"
          />
        </label>
        <ToggleLabel label="Show deleted" checked={params.showDeleted} onChange={(checked) => update({ showDeleted: checked ? 'true' : null })} />
        {params.view === 'graph' && (
          <>
            <Segmented<GraphLayoutDirection>
              label="Layout"
              options={[
                { value: 'horizontal', label: 'Horizontal' },
                { value: 'vertical', label: 'Vertical' },
              ]}
              value={params.layout}
              onChange={(layout) => update({ layout: layout === 'horizontal' ? null : layout })}
            />
            <Segmented<GraphCurve>
              label="Edge style"
              options={GRAPH_CURVES.map((curve) => ({ value: curve, label: CURVE_LABELS[curve] }))}
              value={params.curve}
              onChange={(curve) => update({ curve: curve === 'bezier' ? null : curve })}
            />
          </>
        )}
      </FilterBar>
      {related.isError ? (
        <QueryError subject="Related configs" error={related.error} onRetry={() => void related.refetch()} />
      ) : params.view === 'table' ? (
        <RelationshipsTable items={items} isLoading={related.isPending} unlinkableIds={unlinkable} onUnlink={handleUnlink} />
      ) : related.isPending || root.isPending ? (
        <p role="status" aria-busy="true" className="p-4 text-sm text-gray-500">Loading graph…</p>
      ) : items.length === 0 ? (
        <p className="p-4 text-sm text-gray-500">No related configs match these filters</p>
      ) : (
        <Suspense fallback={<p role="status" aria-busy="true" className="p-4 text-sm text-gray-500">Loading graph…</p>}>
          <RelationshipsGraph key={configId} root={rootItem} related={items} direction={params.layout} curve={params.curve} />
        </Suspense>
      )}
      <ConfirmDialog
        open={pendingUnlink !== null}
        onOpenChange={(open) => {
          if (!open && !deleteLink.isPending) setPendingUnlink(null);
        }}
        title="Unlink config"
        message="Are you sure you want to delete this config link."
        confirmLabel="Unlink"
        isPending={deleteLink.isPending}
        onConfirm={handleConfirmUnlink}
      />
    </section>
  );
}
