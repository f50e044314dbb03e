import { useId, useState } from 'react';
import { Download } from 'lucide-react';
import { formatBytes, SNAPSHOT_RANGES, type TopologyComponent } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { Switch } from '@/components/switch/switch';
import { useDownloadSnapshotMutation, type SnapshotProgress } from '../api/download-snapshot';

export interface SnapshotDialogProps {
  component: TopologyComponent;
  open: boolean;
  onOpenChange(open: boolean): void;
}

const RANGE_OPTIONS = SNAPSHOT_RANGES.map((range) => ({ value: range.start, label: range.label }));
const PERCENT = 100;

function ProgressLine({ progress }: { progress: SnapshotProgress | null }) {
  const total = progress?.total ?? null;
  const received = progress?.received ?? 0;
  return (
    <div role="status" className="flex flex-col gap-1 text-xs text-gray-600">
      <progress aria-label="Download progress" className="h-1.5 w-full" max={total ?? undefined} value={total === null ? undefined : received} />
      <span>
        Downloading… {formatBytes(received)}
        {total !== null && ` of ${formatBytes(total)} (${Math.round((received / total) * PERCENT)}%)`}
      </span>
    </div>
  );
}

function SnapshotForm({ component, onDone }: { component: TopologyComponent; onDone: () => void }) {
  const id = useId();
  const [start, setStart] = useState<string>(RANGE_OPTIONS[0]?.value ?? '1h');
  const [related, setRelated] = useState(false);
  const [progress, setProgress] = useState<SnapshotProgress | null>(null);
  const download = useDownloadSnapshotMutation();
  const isDownloading = download.isPending;

  const handleDownload = () => {
    setProgress(null);
    // A failure keeps the dialog open (the hook shows 'Error downloading file'), so the user can try again.
    download.mutate({ component, start, related, onProgress: setProgress }, { onSuccess: onDone });
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-range`} className="text-sm font-medium text-gray-800">
          Time range
        </label>
        <Dropdown id={`${id}-range`} options={RANGE_OPTIONS} value={start} onChange={setStart} disabled={isDownloading} />
      </div>
      <div className="flex items-center gap-2">
        <Switch id={`${id}-related`} checked={related} onCheckedChange={setRelated} disabled={isDownloading} />
        <label htmlFor={`${id}-related`} className="text-sm text-gray-800">
          Include related components
        </label>
      </div>
      {isDownloading && <ProgressLine progress={progress} />}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={isDownloading} onClick={onDone}>
          Cancel
        </Button>
        <Button isPending={isDownloading} onClick={handleDownload}>
          {!isDownloading && <Download aria-hidden="true" className="size-4" />}
          Download
        </Button>
      </div>
    </div>
  );
}

/** Snapshot (spec 001 §2.9): the component's zip for a time range, optionally with its related components. */
export function SnapshotDialog({ component, open, onOpenChange }: SnapshotDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Snapshot" description={component.name} size="very-small" expandable={false}>
      {open && <SnapshotForm component={component} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}
