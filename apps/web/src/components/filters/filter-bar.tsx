import type { ReactNode } from 'react';
import { clsx } from 'clsx';

export interface FilterBarProps {
  children: ReactNode;
  /** Controls kept at the far end of the bar, such as a refresh button. */
  actions?: ReactNode;
  label?: string;
  className?: string;
}

export function FilterBar({ children, actions, label = 'Filters', className }: FilterBarProps) {
  return (
    <div role="group" aria-label={label} className={clsx('flex flex-wrap items-center gap-2 py-2', className)}>
      <div className="flex flex-1 flex-wrap items-center gap-2">{children}</div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  );
}
