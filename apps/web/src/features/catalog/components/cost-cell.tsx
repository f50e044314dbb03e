import { clsx } from 'clsx';
import { costChange, formatCost } from '../utils/catalog-format';

export interface CostCellProps {
  cost: number | null;
  cost1d: number | null;
  cost30d: number | null;
}

/** A cost, with the change badge of spec 002 §2.1 when the last day is more than 10 % off the 30-day daily average. */
export function CostCell({ cost, cost1d, cost30d }: CostCellProps) {
  const change = costChange(cost1d, cost30d);
  return (
    <span className="flex items-center gap-1.5">
      <span>{formatCost(cost)}</span>
      {change !== null && (
        <span
          title="Last day against the 30-day daily average"
          className={clsx('rounded px-1 text-xs font-medium', change > 0 ? 'bg-red-100 text-red-700' : 'bg-green-100 text-green-700')}
        >
          {change > 0 ? '+' : ''}
          {Math.round(change * 100)}%
        </span>
      )}
    </span>
  );
}
