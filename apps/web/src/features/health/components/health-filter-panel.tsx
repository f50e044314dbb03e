import { useId } from 'react';
import { decodeTristate, encodeTristate, type TristateValue } from '@opsdeck/shared';
import { TristateFilterDropdown } from '@/components/filters/tristate-filter-dropdown';
import { Switch } from '@/components/switch/switch';
import { isBooleanLabel } from '../utils/grouping';

export interface HealthFilterPanelProps {
  hidePassing: boolean;
  onHidePassingChange: (hidePassing: boolean) => void;
  /** Every label key with its values. */
  labels: Record<string, string[]>;
  /** The label selection in the tristate URL form, entries written `key=value`. */
  labelSelection: string;
  onLabelSelectionChange: (selection: string) => void;
}

function prefixOf(key: string): string {
  return `${key}=`;
}

/** The selection of one key, its values stripped of the `key=` prefix. */
function keySelection(all: Record<string, TristateValue>, key: string): Record<string, TristateValue> {
  const prefix = prefixOf(key);
  return Object.fromEntries(Object.entries(all).filter(([pair]) => pair.startsWith(prefix)).map(([pair, state]) => [pair.slice(prefix.length), state]));
}

function replaceKey(all: Record<string, TristateValue>, key: string, values: Record<string, TristateValue>): string {
  const prefix = prefixOf(key);
  const others = Object.entries(all).filter(([pair]) => !pair.startsWith(prefix));
  return encodeTristate(Object.fromEntries([...others, ...Object.entries(values).map(([value, state]) => [`${prefix}${value}`, state])]));
}

/** The left panel of spec 001 §2.2: 'Filter by Health' and 'Filter by Label'. */
export function HealthFilterPanel({ hidePassing, onHidePassingChange, labels, labelSelection, onLabelSelectionChange }: HealthFilterPanelProps) {
  const hidePassingId = useId();
  const selection = decodeTristate(labelSelection);
  const keys = Object.keys(labels);

  return (
    <aside aria-label="Check filters" className="flex shrink-0 flex-row flex-wrap gap-x-8 gap-y-3 border-b border-gray-200 pb-3 xl:w-60 xl:flex-col xl:flex-nowrap xl:gap-5 xl:overflow-y-auto xl:border-r xl:border-b-0 xl:pr-4 xl:pb-0">
      <section className="flex flex-col gap-2">
        <h2 className="text-xs font-semibold text-gray-500 uppercase">Filter by Health</h2>
        <div className="flex items-center gap-2 text-sm text-gray-800">
          <Switch id={hidePassingId} checked={hidePassing} onCheckedChange={onHidePassingChange} />
          <label htmlFor={hidePassingId}>Hide Passing</label>
        </div>
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-xs font-semibold text-gray-500 uppercase">Filter by Label</h2>
        {keys.length === 0 && <p className="text-sm text-gray-500">No labels</p>}
        {keys.map((key) => {
          const values = labels[key] ?? [];
          const own = keySelection(selection, key);
          if (isBooleanLabel(values)) {
            const switchId = `label-toggle-${key}`;
            return (
              <div key={key} className="flex items-center gap-2 text-sm text-gray-800">
                <Switch
                  id={switchId}
                  checked={own.true === 1}
                  onCheckedChange={(checked) => onLabelSelectionChange(replaceKey(selection, key, checked ? { true: 1 } : {}))}
                />
                <label htmlFor={switchId} className="truncate">
                  {key}
                </label>
              </div>
            );
          }
          return (
            <TristateFilterDropdown
              key={key}
              label={key}
              className="w-full justify-between"
              options={values.map((value) => ({ value }))}
              value={encodeTristate(own)}
              onChange={(next) => onLabelSelectionChange(replaceKey(selection, key, decodeTristate(next)))}
            />
          );
        })}
      </section>
    </aside>
  );
}
