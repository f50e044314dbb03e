import { DropdownMenu } from 'radix-ui';
import { ChevronDown, Download } from 'lucide-react';
import { useDownloadRunLogs, type RunLogsSelection } from '../../api/download-run-logs';
import type { RunStep } from './run-steps';

const MENU_CONTENT = 'z-50 min-w-48 rounded-md border border-gray-200 bg-white p-1 text-sm text-gray-700 shadow-lg';
const MENU_ITEM =
  'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none select-none data-[highlighted]:bg-gray-100 data-[highlighted]:text-gray-900 data-[disabled]:cursor-default data-[disabled]:text-gray-400';

export interface DownloadLogsMenuProps {
  runId: string;
  selected: RunStep | null;
}

/** 'Download logs': the whole run, or the selected action, as a text file (spec 001 §2.5, §8). */
export function DownloadLogsMenu({ runId, selected }: DownloadLogsMenuProps) {
  const download = useDownloadRunLogs();
  const selection: RunLogsSelection | null =
    selected === null
      ? null
      : selected.isInitialization
        ? { kind: 'initialization', runId }
        : { kind: 'action', runId, actionId: selected.id };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        disabled={download.isPending}
        className="inline-flex items-center justify-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-gray-800 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 disabled:text-gray-400"
      >
        <Download aria-hidden="true" className="size-4" />
        Download logs
        <ChevronDown aria-hidden="true" className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className={MENU_CONTENT}>
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => download.mutate({ kind: 'run', runId })}>
            All actions
          </DropdownMenu.Item>
          <DropdownMenu.Item className={MENU_ITEM} disabled={selection === null} onSelect={() => selection !== null && download.mutate(selection)}>
            {selected === null ? 'Selected action' : `Selected action (${selected.name})`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
