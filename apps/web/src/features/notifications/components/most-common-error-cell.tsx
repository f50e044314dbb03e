import { Tooltip } from 'radix-ui';

/** The error cut to one line in the table; the tooltip (on hover or keyboard focus) shows it whole. */
export function MostCommonErrorCell({ error }: { error: string | null }) {
  if (error === null) return null;
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <span tabIndex={0} className="block truncate text-red-700 focus-visible:outline-2 focus-visible:outline-blue-500">
            {error}
          </span>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content side="top" sideOffset={6} className="z-50 max-w-sm rounded bg-gray-900 px-2 py-1 text-xs break-words whitespace-pre-wrap text-white shadow">
            {error}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
