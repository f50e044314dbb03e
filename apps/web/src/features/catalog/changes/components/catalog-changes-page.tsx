import { useMemo } from 'react';
import type { SortingState } from '@tanstack/react-table';
import { RefreshCw } from 'lucide-react';
import { CATALOG_CHANGE_SORTS, FILTER_ALL, SEVERITIES, type CatalogChangeSort, type TimeRange } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { TristateFilterDropdown } from '@/components/filters/tristate-filter-dropdown';
import { Switch } from '@/components/switch/switch';
import { TimeRangePicker } from '@/components/time-range/time-range-picker';
import { usePreference } from '@/lib/preferences/use-preference';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CatalogTabs } from '../../components/catalog-tabs';
import { useSearchUpdate } from '../../utils/use-search-update';
import { useCatalogChangesQuery, useRefreshCatalogChanges } from '../api/get-catalog-changes';
import { useChangeFilterOptionsQuery } from '../api/get-change-filter-options';
import { HIDE_DELETED_CHANGES_KEY, PARAM_NAMES, changesRequestBody, parseChangesParams, timeRangeParams, type FilterName } from '../change-params';
import { ChangesTable } from './changes-table';

const SEVERITY_OPTIONS = SEVERITIES.map((severity) => ({ value: severity, label: severity }));

function isSortColumn(value: string): value is CatalogChangeSort {
  return (CATALOG_CHANGE_SORTS as readonly string[]).includes(value);
}

/** /catalog/changes: every config change in a time range, filtered, sorted and paged by the server (spec 002 §2.1). */
export function CatalogChangesPage() {
  useDocumentTitle('Config changes');
  const [search, update] = useSearchUpdate();
  const params = useMemo(() => parseChangesParams(search), [search]);
  const [hideDeleted, setHideDeleted] = usePreference(HIDE_DELETED_CHANGES_KEY, 'yes');
  const body = useMemo(() => changesRequestBody(params, hideDeleted !== 'no'), [params, hideDeleted]);
  const changes = useCatalogChangesQuery(body);
  const refresh = useRefreshCatalogChanges(body);
  const configTypes = useChangeFilterOptionsQuery('configTypes');
  const changeTypes = useChangeFilterOptionsQuery('changeTypes');
  const tags = useChangeFilterOptionsQuery('tags');
  const people = useChangeFilterOptionsQuery('people');

  // A new filter shows its first page.
  const handleFilter = (name: FilterName, value: string) => update({ [PARAM_NAMES[name]]: value, page: null });
  const handleTimeRange = (range: TimeRange) => update({ ...timeRangeParams(range), page: null });

  const sorting: SortingState = [{ id: params.sortBy, desc: params.sortDirection === 'desc' }];
  const handleSortingChange = (next: SortingState) => {
    const first = next[0];
    const sortBy = first && isSortColumn(first.id) ? first.id : null;
    update({ sortBy: sortBy === 'created_at' ? null : sortBy, sortDirection: first && !first.desc ? 'asc' : null, page: null });
  };

  return (
    <section className="flex min-h-0 flex-col gap-3 p-4">
      <CatalogTabs />
      <header className="flex flex-wrap items-center gap-2">
        <h1 className="text-lg font-semibold text-gray-900">Config changes</h1>
        <Button variant="ghost" aria-label="Refresh" onClick={() => refresh.mutate()} disabled={changes.isFetching || refresh.isPending}>
          <RefreshCw aria-hidden="true" className={refresh.isPending ? 'size-4 animate-spin' : 'size-4'} />
        </Button>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
          <label className="flex items-center gap-1.5 text-sm text-gray-700">
            <Switch checked={hideDeleted !== 'no'} onCheckedChange={(checked) => setHideDeleted(checked ? 'yes' : 'no')} label="Hide deleted" />
            Hide deleted
          </label>
          <TimeRangePicker value={params.timeRange} onChange={handleTimeRange} />
        </div>
      </header>
      <FilterBar>
        <TristateFilterDropdown label="Config type" options={configTypes.data ?? []} value={params.configTypes} onChange={(value) => handleFilter('configTypes', value)} />
        <TristateFilterDropdown label="Change type" options={changeTypes.data ?? []} value={params.changeType} onChange={(value) => handleFilter('changeType', value)} />
        <TristateFilterDropdown label="Severity" options={SEVERITY_OPTIONS} value={params.severity} onChange={(value) => handleFilter('severity', value)} />
        <TristateFilterDropdown label="Tags" options={tags.data ?? []} value={params.tags} onChange={(value) => handleFilter('tags', value)} />
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Created by
          <Dropdown
            label="Created by"
            options={[{ value: FILTER_ALL, label: 'Anyone' }, ...(people.data ?? [])]}
            value={params.createdBy === '' ? FILTER_ALL : params.createdBy}
            onChange={(value) => handleFilter('createdBy', value === FILTER_ALL ? '' : value)}
          />
        </label>
        <SearchInput value={params.summary} onChange={(value) => handleFilter('summary', value)} placeholder="Summary" label="Summary" />
        <SearchInput value={params.source} onChange={(value) => handleFilter('source', value)} placeholder="Source (a,!b)" label="Source" />
        <SearchInput
          value={params.externalCreatedBy}
          onChange={(value) => handleFilter('externalCreatedBy', value)}
          placeholder="External creator (a,!b)"
          label="External created by"
         
        />
        <SearchInput value={params.id} onChange={(value) => handleFilter('id', value)} placeholder="Config id" label="Config id" />
      </FilterBar>
      <ChangesTable
        changes={changes}
        page={params.page}
        pageSize={params.pageSize}
        update={update}
        emptyText="No changes match these filters in this time range"
        preferenceKey="catalog-changes"
        sorting={{ sorting, onSortingChange: handleSortingChange }}
      />
    </section>
  );
}
