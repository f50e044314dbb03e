import { useMemo } from 'react';
import type { TimeRange } from '@opsdeck/shared';
import { Switch } from '@/components/switch/switch';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { usePreference } from '@/lib/preferences/use-preference';
import { useCatalogChangesQuery } from '../../changes/api/get-catalog-changes';
import { HIDE_DELETED_CHANGES_KEY, changesRequestBody, parseChangesParams } from '../../changes/change-params';
import { ChangesTable } from '../../changes/components/changes-table';
import { useSearchUpdate } from '../../utils/use-search-update';
import { DOWNSTREAM_PARAM, UPSTREAM_PARAM, directionBody, readDirections } from '../change-direction';

/** One item has few changes a day, so its tab opens on a month rather than the changes list's two days. */
const ITEM_CHANGES_FROM = 'now-1mo';
const ITEM_CHANGES_RANGE: TimeRange = { type: 'relative', range: ITEM_CHANGES_FROM };

/**
 * Why the list and the tab's badge can show different numbers (#34 item 13): the badge counts this item's own changes
 * over all time, the list adds the items the toggles name and shows one time range.
 */
export function changesScopeNote(ownCount: number, directions: { upstream: boolean; downstream: boolean }): string {
  const others = [directions.upstream ? 'upstream' : null, directions.downstream ? 'downstream' : null].filter((side) => side !== null);
  const own = `The tab's count, ${ownCount}, is this item's own changes over all time`;
  return others.length === 0
    ? `${own}; this list shows them in the chosen time range.`
    : `${own}; this list also shows the changes of the items ${others.join(' and ')} of it, in the chosen time range.`;
}

/** The Changes tab: this item's changes, and with the toggles those of the items up- and downstream of it. */
export function ConfigChangesTab({ configId, ownCount }: { configId: string; ownCount: number }) {
  const [search, update] = useSearchUpdate();
  const [hideDeleted] = usePreference(HIDE_DELETED_CHANGES_KEY, 'yes');
  const directions = useMemo(() => readDirections(search), [search]);
  const params = useMemo(() => {
    const parsed = parseChangesParams(search);
    return { ...parsed, id: configId, timeRange: search.get('from') === null ? ITEM_CHANGES_RANGE : parsed.timeRange };
  }, [search, configId]);
  const body = useMemo(() => ({ ...changesRequestBody(params, hideDeleted !== 'no'), ...directionBody(directions) }), [params, hideDeleted, directions]);
  const changes = useCatalogChangesQuery(body);

  const handleTimeRange = (range: TimeRange) => {
    if (range.type === 'relative') update({ from: range.range === ITEM_CHANGES_FROM ? null : range.range, to: null, page: null });
    else update({ from: range.from, to: range.to, page: null });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          <Switch checked={directions.upstream} onCheckedChange={(checked) => update({ [UPSTREAM_PARAM]: checked ? 'true' : null, page: null })} label="Upstream" />
          Upstream
        </label>
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          <Switch checked={directions.downstream} onCheckedChange={(checked) => update({ [DOWNSTREAM_PARAM]: checked ? null : 'false', page: null })} label="Downstream" />
          Downstream
        </label>
        <div className="ml-auto">
          <TimeRangePicker value={params.timeRange} onChange={handleTimeRange} />
        </div>
      </div>
      <p className="text-xs text-gray-600">{changesScopeNote(ownCount, directions)}</p>
      <ChangesTable changes={changes} page={params.page} pageSize={params.pageSize} update={update} emptyText="No changes in this time range" preferenceKey="config-changes" />
    </div>
  );
}
