import { Fragment, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Tooltip } from 'radix-ui';
import { clsx } from 'clsx';
import { formatRelativeTime } from '@opsdeck/shared';
import { RunStatusIcon } from './run-status-badge';
import { runDuration } from './run-times';
import { isSelectableStep, type RunStep } from './run-steps';

export interface RunActionsListProps {
  steps: readonly RunStep[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** Spec 001 §4: a sleeping action says when it wakes. */
export function sleepingTooltip(step: Pick<RunStep, 'scheduled_time'>, now: Date = new Date()): string {
  return `Scheduled to run in ${formatRelativeTime(step.scheduled_time, now)}`;
}

function withTooltip(step: RunStep, option: ReactNode): ReactNode {
  if (step.status !== 'sleeping') return option;
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{option}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content side="right" sideOffset={6} className="z-50 rounded bg-gray-900 px-2 py-1 text-xs text-white shadow">
          {sleepingTooltip(step)}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

/**
 * The run's steps as a listbox: click or arrow keys (Home, End) select one; a skipped action is announced as
 * disabled and passed over. Only the selected step is in the tab order, so Tab moves on to the output.
 */
export function RunActionsList({ steps, selectedId, onSelect }: RunActionsListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const selectable = steps.filter(isSelectableStep);

  const choose = (id: string) => {
    onSelect(id);
    const options = listRef.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [];
    Array.from(options)
      .find((element) => element.dataset.stepId === id)
      ?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = selectable.findIndex((step) => step.id === selectedId);
    const target =
      event.key === 'ArrowDown'
        ? selectable[Math.min(index + 1, selectable.length - 1)]
        : event.key === 'ArrowUp'
          ? selectable[Math.max(index - 1, 0)]
          : event.key === 'Home'
            ? selectable[0]
            : event.key === 'End'
              ? selectable.at(-1)
              : undefined;
    if (target === undefined) return;
    event.preventDefault();
    choose(target.id);
  };

  if (steps.length === 0) return <p className="px-3 py-4 text-sm text-gray-500">No actions have run yet</p>;

  return (
    <Tooltip.Provider delayDuration={200}>
      <ul ref={listRef} role="listbox" aria-label="Actions" onKeyDown={handleKeyDown} className="flex flex-col gap-0.5 p-1">
        {steps.map((step) => {
          const isSelected = step.id === selectedId;
          const isSelectable = isSelectableStep(step);
          const option = (
            <li
              role="option"
              data-step-id={step.id}
              aria-selected={isSelected}
              aria-disabled={isSelectable ? undefined : true}
              tabIndex={isSelected ? 0 : -1}
              onClick={isSelectable ? () => choose(step.id) : undefined}
              className={clsx(
                'flex items-center gap-2 rounded px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-500',
                isSelected ? 'bg-blue-50 font-medium text-blue-900' : 'text-gray-800',
                isSelectable ? 'cursor-pointer hover:bg-gray-100' : 'cursor-not-allowed text-gray-400',
              )}
            >
              <RunStatusIcon status={step.status} />
              <span className="min-w-0 flex-1 truncate">{step.name}</span>
              <span className="shrink-0 text-xs text-gray-600 tabular-nums">{runDuration(step.start_time, step.end_time)}</span>
            </li>
          );
          return <Fragment key={step.id}>{withTooltip(step, option)}</Fragment>;
        })}
      </ul>
    </Tooltip.Provider>
  );
}
