import { REFRESH_RATE_KEYS, isRefreshRateAllowed, type RefreshRate } from '@opsdeck/shared';
import { Dropdown } from '@/components/dropdown/dropdown';
import { REFRESH_RATE_LABELS } from '../utils/refresh-rate';

export interface RefreshRateControlProps {
  rate: RefreshRate;
  onChange: (rate: RefreshRate) => void;
  /** Length of the chosen time range; fast rates are refused over long ranges (spec 001 §4). */
  rangeMinutes: number;
}

export function RefreshRateControl({ rate, onChange, rangeMinutes }: RefreshRateControlProps) {
  const options = REFRESH_RATE_KEYS.map((key) => ({ value: key, label: REFRESH_RATE_LABELS[key], disabled: !isRefreshRateAllowed(key, rangeMinutes) }));
  return <Dropdown label="Refresh rate" options={options} value={rate} onChange={onChange} className="min-w-28" />;
}
