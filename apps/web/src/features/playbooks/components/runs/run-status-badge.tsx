import type { ComponentType } from 'react';
import { clsx } from 'clsx';
import { AlarmClock, Ban, CircleCheck, CircleDashed, CircleX, Clock, Hourglass, LoaderCircle, SkipForward, type LucideProps } from 'lucide-react';
import type { PlaybookActionStatus, PlaybookRunStatus } from '@opsdeck/shared';

export type RunOrActionStatus = PlaybookRunStatus | PlaybookActionStatus;

interface StatusLook {
  label: string;
  icon: ComponentType<LucideProps>;
  /** Badge colours. */
  badge: string;
  /** Icon colour when shown alone. */
  tone: string;
  spin?: boolean;
}

const LOOKS: Record<RunOrActionStatus, StatusLook> = {
  pending: { label: 'Pending', icon: CircleDashed, badge: 'bg-gray-100 text-gray-700 ring-gray-300', tone: 'text-gray-500' },
  scheduled: { label: 'Scheduled', icon: Clock, badge: 'bg-violet-50 text-violet-700 ring-violet-300', tone: 'text-violet-600' },
  running: { label: 'Running', icon: LoaderCircle, badge: 'bg-blue-50 text-blue-700 ring-blue-300', tone: 'text-blue-600', spin: true },
  waiting: { label: 'Waiting', icon: Hourglass, badge: 'bg-amber-50 text-amber-800 ring-amber-300', tone: 'text-amber-600' },
  sleeping: { label: 'Sleeping', icon: AlarmClock, badge: 'bg-violet-50 text-violet-700 ring-violet-300', tone: 'text-violet-600' },
  completed: { label: 'Completed', icon: CircleCheck, badge: 'bg-green-50 text-green-700 ring-green-300', tone: 'text-green-600' },
  failed: { label: 'Failed', icon: CircleX, badge: 'bg-red-50 text-red-700 ring-red-300', tone: 'text-red-600' },
  cancelled: { label: 'Cancelled', icon: Ban, badge: 'bg-gray-100 text-gray-600 ring-gray-300', tone: 'text-gray-500' },
  skipped: { label: 'Skipped', icon: SkipForward, badge: 'bg-gray-50 text-gray-500 ring-gray-200', tone: 'text-gray-400' },
};

/** 'Completed', 'Waiting'… as every run and action status is shown. */
export function runStatusLabel(status: RunOrActionStatus): string {
  return LOOKS[status].label;
}

export interface RunStatusProps {
  status: RunOrActionStatus;
  className?: string;
}

/** A run's or an action's status as a coloured badge with its icon (spec 001 §4 statuses). */
export function RunStatusBadge({ status, className }: RunStatusProps) {
  const look = LOOKS[status];
  const Icon = look.icon;
  return (
    <span
      data-status={status}
      className={clsx('inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', look.badge, className)}
    >
      <Icon aria-hidden="true" className={clsx('size-3.5', look.spin && 'animate-spin')} />
      {look.label}
    </span>
  );
}

/** The status icon alone, named for assistive technology, for compact lists. */
export function RunStatusIcon({ status, className }: RunStatusProps) {
  const look = LOOKS[status];
  const Icon = look.icon;
  return <Icon role="img" aria-label={look.label} className={clsx('size-4 shrink-0', look.tone, look.spin && 'animate-spin', className)} />;
}
