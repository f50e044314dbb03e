import { FILTER_ALL, SEVERITIES } from '@opsdeck/shared';
import { Dropdown } from '@/components/dropdown/dropdown';
import { FilterBar } from '@/components/filters/filter-bar';
import { TristateFilterDropdown } from '@/components/filters/tristate-filter-dropdown';
import { usePermissions } from '@/lib/auth/permissions';
import { useInsightFilterOptionsQuery } from '../api/get-insight-filter-options';
import { ANALYSIS_STATUSES, ANALYSIS_TYPES, type InsightFilterName, type InsightFilters } from '../insight-params';

const SEVERITY_OPTIONS = SEVERITIES.map((severity) => ({ value: severity, label: severity }));
const TYPE_OPTIONS = ANALYSIS_TYPES.map((type) => ({ value: type, label: type.replace('_', ' ') }));
const STATUS_OPTIONS = ANALYSIS_STATUSES.map((status) => ({ value: status, label: status }));

export interface InsightFilterBarProps {
  filters: InsightFilters;
  onChange: (name: InsightFilterName, value: string) => void;
  /**
   * A config's own tab leaves out the filters that would only ever match it (its type) or that stand for a set of
   * configs (a component).
   */
  scope: 'global' | 'config';
}

/** The insights filters of spec 002 §2.1 (Config Type, Severity, Analyzer, Component) plus analysis type and status. */
export function InsightFilterBar({ filters, onChange, scope }: InsightFilterBarProps) {
  const global = scope === 'global';
  // Components are guarded by the topologies permission; a role without it gets no menu instead of a failing one.
  const canReadComponents = usePermissions().can('topologies', 'read');
  const configTypes = useInsightFilterOptionsQuery('configTypes', global);
  const analyzers = useInsightFilterOptionsQuery('analyzers');
  const components = useInsightFilterOptionsQuery('components', global && canReadComponents);

  return (
    <FilterBar>
      {global && <TristateFilterDropdown label="Config Type" options={configTypes.data ?? []} value={filters.configType} onChange={(value) => onChange('configType', value)} />}
      <TristateFilterDropdown label="Type" options={TYPE_OPTIONS} value={filters.analysisType} onChange={(value) => onChange('analysisType', value)} />
      <TristateFilterDropdown label="Severity" options={SEVERITY_OPTIONS} value={filters.severity} onChange={(value) => onChange('severity', value)} />
      <TristateFilterDropdown label="Analyzer" options={analyzers.data ?? []} value={filters.analyzer} onChange={(value) => onChange('analyzer', value)} />
      <TristateFilterDropdown label="Status" options={STATUS_OPTIONS} value={filters.status} onChange={(value) => onChange('status', value)} />
      {global && canReadComponents && (
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Component
          <Dropdown
            label="Component"
            options={[{ value: FILTER_ALL, label: 'Any component' }, ...(components.data ?? [])]}
            value={filters.component === '' ? FILTER_ALL : filters.component}
            onChange={(value) => onChange('component', value === FILTER_ALL ? '' : value)}
          />
        </label>
      )}
    </FilterBar>
  );
}
