import { useId, useMemo, type ReactNode } from 'react';
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { TOPOLOGY_CARD_SIZES, TOPOLOGY_CARD_WIDTH, type TopologyCardSize, type TopologyViewType } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { Switch } from '@/components/switch/switch';
import type { TopologyResponse } from '../api/types';
import { ALL_VALUE, DEFAULT_SORT_BY, FIELD_SORT_PREFIX, type TopologyPageParams, type TopologyParamChanges } from '../utils/topology-params';
import type { CardPreferences } from '../utils/use-card-preferences';

/** The agent_id value for components the local server owns (no agent). */
export const LOCAL_AGENT = 'local';

const SIZE_LABELS: Record<TopologyCardSize, string> = { small: 'Small', medium: 'Medium', large: 'Large', extra_large: 'Extra large' };
const SIZE_OPTIONS = (Object.keys(TOPOLOGY_CARD_SIZES) as TopologyCardSize[]).map((size) => ({ value: size, label: SIZE_LABELS[size] }));
const VIEW_OPTIONS: DropdownOption<TopologyViewType>[] = [
  { value: 'summary', label: 'Summary' },
  { value: 'detailed', label: 'Detailed' },
];
const BASE_SORTS: DropdownOption[] = [
  { value: DEFAULT_SORT_BY, label: 'Health' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
];

/** 'All', then the values, with the current one kept when the facets do not list it, so the menu shows the filter. */
function withAll(values: readonly string[], current: string, label: (value: string) => string = (value) => value): DropdownOption[] {
  const all = current !== '' && !values.includes(current) ? [current, ...values] : values;
  return [{ value: ALL_VALUE, label: 'All' }, ...all.map((value) => ({ value, label: label(value) }))];
}

export interface TopologyFacets {
  facets: Pick<TopologyResponse, 'healthStatuses' | 'tags' | 'teams' | 'types'> | undefined;
  /** Agent ids of the cards shown, `local` for those without one. */
  agentIds: readonly string[];
  /** Property names of the cards shown, offered as `field:` sorts. */
  propertyNames: readonly string[];
}

export interface TopologyFiltersProps extends TopologyFacets {
  params: TopologyPageParams;
  onChange: (changes: TopologyParamChanges) => void;
  preferences: CardPreferences;
}

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex items-center gap-1.5 text-sm text-gray-700">
      {label}
      {children}
    </label>
  );
}

/** Filters, sort and card layout of the topology page; filters and sort go to the URL, layout to local storage. */
export function TopologyFilters({ params, onChange, preferences, facets, agentIds, propertyNames }: TopologyFiltersProps) {
  const hiddenId = useId();
  const labelValues = useMemo(
    () => Object.entries(facets?.tags ?? {}).flatMap(([key, values]) => values.map((value) => `${key}=${value}`)),
    [facets?.tags],
  );
  const sortOptions = useMemo<DropdownOption[]>(() => {
    const fields = propertyNames.map((name) => ({ value: `${FIELD_SORT_PREFIX}${name}`, label: name }));
    const options = [...BASE_SORTS, ...fields];
    if (!options.some((option) => option.value === params.sortBy)) options.push({ value: params.sortBy, label: params.sortBy.replace(FIELD_SORT_PREFIX, '') });
    return options;
  }, [propertyNames, params.sortBy]);
  const valueOrAll = (value: string) => (value === '' ? ALL_VALUE : value);
  const descending = params.sortOrder === 'desc';

  return (
    <FilterBar>
      <Labelled label="Health">
        <Dropdown label="Health" options={withAll(facets?.healthStatuses ?? [], params.status)} value={valueOrAll(params.status)} onChange={(status) => onChange({ status })} />
      </Labelled>
      <Labelled label="Team">
        <Dropdown label="Team" options={withAll(facets?.teams ?? [], params.team)} value={valueOrAll(params.team)} onChange={(team) => onChange({ team })} />
      </Labelled>
      <Labelled label="Type">
        <Dropdown label="Type" options={withAll(facets?.types ?? [], params.type)} value={valueOrAll(params.type)} onChange={(type) => onChange({ type })} />
      </Labelled>
      <Labelled label="Labels">
        <Dropdown label="Labels" options={withAll(labelValues, params.labels)} value={valueOrAll(params.labels)} onChange={(labels) => onChange({ labels })} />
      </Labelled>
      <Labelled label="Agent">
        <Dropdown
          label="Agent"
          options={withAll(agentIds, params.agentId)}
          value={valueOrAll(params.agentId)}
          onChange={(agentId) => onChange({ agent_id: agentId })}
        />
      </Labelled>
      <Labelled label="Sort by">
        <Dropdown label="Sort by" options={sortOptions} value={params.sortBy} onChange={(sortBy) => onChange({ sortBy })} />
      </Labelled>
      <Button
        variant="secondary"
        aria-label={descending ? 'Sort descending' : 'Sort ascending'}
        title={descending ? 'Descending: click for ascending' : 'Ascending: click for descending'}
        onClick={() => onChange({ sortOrder: descending ? 'asc' : 'desc' })}
      >
        {descending ? <ArrowDownWideNarrow aria-hidden="true" className="size-4" /> : <ArrowUpNarrowWide aria-hidden="true" className="size-4" />}
      </Button>
      <span className="flex items-center gap-1.5 text-sm text-gray-700">
        <Switch id={hiddenId} checked={params.showHidden} onCheckedChange={(checked) => onChange({ showHiddenComponents: checked ? 'yes' : 'no' })} />
        <label htmlFor={hiddenId}>Show hidden</label>
      </span>
      <Labelled label="Card size">
        <Dropdown label="Card size" options={SIZE_OPTIONS} value={preferences.size} onChange={preferences.setSize} />
      </Labelled>
      <Labelled label="View">
        <Dropdown label="View" options={VIEW_OPTIONS} value={preferences.viewType} onChange={preferences.setViewType} />
      </Labelled>
      <label className="flex items-center gap-1.5 text-sm text-gray-700">
        Width
        <input
          type="range"
          aria-label="Card width"
          min={TOPOLOGY_CARD_WIDTH.min}
          max={TOPOLOGY_CARD_WIDTH.max}
          step={TOPOLOGY_CARD_WIDTH.step}
          value={preferences.sliderWidth}
          onChange={(event) => preferences.setWidth(Number(event.target.value))}
          className="w-28 accent-blue-600"
        />
        <span className="w-12 text-xs text-gray-500 tabular-nums">{preferences.width}px</span>
      </label>
    </FilterBar>
  );
}
