import { clsx } from 'clsx';
import { severityColor, type SeverityColor } from '@opsdeck/shared';

const COLOR_CLASSES: Record<SeverityColor, string> = {
  gray: 'bg-gray-100 text-gray-700 ring-gray-300',
  yellow: 'bg-yellow-50 text-yellow-800 ring-yellow-300',
  green: 'bg-green-50 text-green-700 ring-green-300',
  orange: 'bg-orange-50 text-orange-700 ring-orange-300',
  red: 'bg-red-50 text-red-700 ring-red-300',
};

export interface SeverityBadgeProps {
  severity: string;
  className?: string;
}

export function SeverityBadge({ severity, className }: SeverityBadgeProps) {
  const color = severityColor(severity);
  return (
    <span
      data-color={color}
      className={clsx(
        'inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium capitalize ring-1 ring-inset',
        COLOR_CLASSES[color],
        className,
      )}
    >
      {severity}
    </span>
  );
}
