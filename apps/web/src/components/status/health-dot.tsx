import { clsx } from 'clsx';
import { healthDotColor, type HealthDotColor } from '@opsdeck/shared';

const COLOR_CLASSES: Record<HealthDotColor, string> = {
  red: 'bg-red-500',
  grey: 'bg-gray-400',
  orange: 'bg-orange-400',
  green: 'bg-green-500',
};

export interface HealthDotProps {
  status: string | null | undefined;
  className?: string;
}

export function HealthDot({ status, className }: HealthDotProps) {
  const color = healthDotColor(status);
  return (
    <span
      role="img"
      aria-label={status ? status : 'unknown'}
      data-color={color}
      className={clsx('inline-block size-2.5 shrink-0 rounded-full', COLOR_CLASSES[color], className)}
    />
  );
}
