import { REFRESH_RATE_KEYS, isRefreshRateAllowed, type RefreshRate } from '@opsdeck/shared';
import { Dropdown } from '@/components/dropdown/dropdown';
import { REFRESH_RATE_LABELS } from '../utils/refresh-rate';

export interface RefreshRateControlProps {
  rate: RefreshRate;
  onChange: (rate: RefreshRate) => void;
  /** Length of the chosen time range; fast rates are refused over long ranges (spec 001 §4). */
  rangeMinutes: number;
}

/**
 * The page's refresh rate, with a visible "Auto-refresh" before it: alone, a dropdown reading "None" said nothing of
 * what it chooses (#34 item 22).
 */
export function RefreshRateControl({ rate, onChange, rangeMinutes }: RefreshRateControlProps) {
  const options = REFRESH_RATE_KEYS.map((key) => ({ value: key, label: REFRESH_RATE_LABELS[key], disabled: !isRefreshRateAllowed(key, rangeMinutes) }));
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className="text-sm whitespace-nowrap text-gray-600">
        Auto-refresh
      </span>
      <Dropdown label="Refresh rate" options={options} value={rate} onChange={onChange} className="min-w-28" />
    </span>
  );
}
