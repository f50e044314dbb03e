import { useMemo } from 'react';
import { X } from 'lucide-react';
import { CHECK_HEALTHS, FILTER_ALL } from '@opsdeck/shared';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { SearchInput } from '@/components/filters/search-input';
import { TristateFilterDropdown } from '@/components/filters/tristate-filter-dropdown';
import { useConfigLabelsQuery, useConfigStatusesQuery, useConfigTagsQuery, useConfigTypesQuery } from '../api/get-catalog-lookups';
import { DEFAULT_GROUP_BY, formatLabels, LABEL_PAIR_SEPARATOR, tagValue, type CatalogParamName, type CatalogParams, type KeyValue } from '../utils/catalog-params';
import { groupHeader } from '../utils/catalog-format';

const HEALTH_OPTIONS = CHECK_HEALTHS.map((health) => ({ value: health }));
const GROUP_COLUMNS = ['type', 'config_class', 'status', 'health', 'agent_id'] as const;

export interface CatalogFiltersProps {
  params: CatalogParams;
  /** The labels parameter read as pairs; empty when it did not parse. */
  labels: readonly KeyValue[];
  summary: boolean;
  onChange: (changes: Partial<Record<CatalogParamName, string | null>>) => void;
}

/** Every filter of spec 002 §2.1, written straight to the query string. */
export function CatalogFilters({ params, labels, summary, onChange }: CatalogFiltersProps) {
  const types = useConfigTypesQuery();
  const statuses = useConfigStatusesQuery();
  const tags = useConfigTagsQuery();
  const labelChoices = useConfigLabelsQuery();

  const typeOptions = useMemo<DropdownOption[]>(() => {
    const known = (types.data ?? []).map((row) => row.type);
    // A type typed into the URL stays selectable, so the menu shows what the table is filtered by.
    const all = params.configType !== '' && !known.includes(params.configType) ? [params.configType, ...known] : known;
    return [{ value: FILTER_ALL, label: 'All' }, ...all.map((type) => ({ value: type, label: type }))];
  }, [types.data, params.configType]);

  const tagOptions = useMemo(
    () => (tags.data ?? []).map((tag) => ({ value: tagValue(tag.key, tag.value), label: `${tag.key}: ${tag.value}` })),
    [tags.data],
  );

  const groupOptions = useMemo<DropdownOption[]>(() => {
    const values = [
      DEFAULT_GROUP_BY.join(','),
      ...GROUP_COLUMNS,
      ...[...new Set((tags.data ?? []).map((tag) => tag.key))].map((key) => `${key}__tag`),
    ];
    const current = params.groupBy.join(',');
    if (!values.includes(current)) values.unshift(current);
    return values.map((value) => ({ value, label: value.split(',').map(groupHeader).join(', ') }));
  }, [tags.data, params.groupBy]);

  const labelOptions = useMemo<DropdownOption[]>(
    () =>
      (labelChoices.data ?? [])
        .filter((choice) => !labels.some((label) => label.key === choice.key && label.value === choice.value))
        .map((choice) => ({ value: `${choice.key}${LABEL_PAIR_SEPARATOR}${choice.value}`, label: `${choice.key}: ${choice.value}` })),
    [labelChoices.data, labels],
  );

  const addLabel = (pair: string) => onChange({ labels: params.labels === '' ? pair : `${params.labels},${pair}` });
  const removeLabel = (index: number) => onChange({ labels: formatLabels(labels.filter((_, at) => at !== index)) });

  return (
    <FilterBar>
      {summary && (
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Group by
          <Dropdown label="Group by" options={groupOptions} value={params.groupBy.join(',')} onChange={(value) => onChange({ groupBy: value })} />
        </label>
      )}
      <label className="flex items-center gap-1.5 text-sm text-gray-700">
        Type
        <Dropdown
          label="Type"
          options={typeOptions}
          value={params.configType === '' ? FILTER_ALL : params.configType}
          onChange={(value) => onChange({ configType: value === FILTER_ALL ? null : value })}
        />
      </label>
      <TristateFilterDropdown label="Health" options={HEALTH_OPTIONS} value={params.health} onChange={(value) => onChange({ health: value })} />
      <TristateFilterDropdown
        label="Status"
        options={(statuses.data ?? []).map((status) => ({ value: status }))}
        value={params.status}
        onChange={(value) => onChange({ status: value })}
      />
      <TristateFilterDropdown label="Tags" options={tagOptions} value={params.tags} onChange={(value) => onChange({ tags: value })} />
      <Dropdown label="Add label filter" placeholder="Label…" options={labelOptions} value={undefined} onChange={addLabel} />
      {labels.map((label, index) => (
        <span key={`${label.key}=${label.value}`} className="inline-flex items-center gap-1 rounded bg-blue-50 px-1.5 py-0.5 text-xs text-blue-800">
          {label.key}: {label.value}
          <button type="button" aria-label={`Remove label ${label.key}: ${label.value}`} className="rounded hover:bg-blue-100" onClick={() => removeLabel(index)}>
            <X aria-hidden="true" className="size-3" />
          </button>
        </span>
      ))}
      <SearchInput value={params.search} onChange={(value) => onChange({ search: value })} placeholder="Search catalog" />
    </FilterBar>
  );
}
