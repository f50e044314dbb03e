import { clsx } from 'clsx';
import { COUNT_BADGE_HIGHLIGHT_FROM, formatCount } from '@opsdeck/shared';

export interface CountBadgeProps {
  count: number;
  /** Spoken with the number, e.g. 'changes'. */
  label?: string;
  className?: string;
}

/** A pill with a count, shortened above 999 and highlighted from 500 on, where a list needs attention. */
export function CountBadge({ count, label, className }: CountBadgeProps) {
  const highlighted = count >= COUNT_BADGE_HIGHLIGHT_FROM;
  return (
    <span
      data-highlighted={highlighted}
      aria-label={label ? `${count} ${label}` : undefined}
      title={String(count)}
      className={clsx(
        'inline-flex min-w-5 items-center justify-center rounded-full px-1.5 text-xs font-medium',
        highlighted ? 'bg-red-100 text-red-700' : 'bg-gray-100 text-gray-700',
        className,
      )}
    >
      {formatCount(count)}
    </span>
  );
}
