import { CircleCheck, CircleX } from 'lucide-react';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { TEST_FAILED_MESSAGE, TEST_SUCCESS_MESSAGE, TEST_UNSUPPORTED_MESSAGE, type ConnectionTestOutcome } from '../api/test-connection';

export interface TestConnectionDialogProps {
  /** Nothing to show closes the dialog. */
  outcome: ConnectionTestOutcome | null;
  onClose: () => void;
}

function OutcomeBody({ outcome }: { outcome: ConnectionTestOutcome }) {
  switch (outcome.kind) {
    case 'success':
      return (
        <p className="flex items-center gap-2 text-sm text-green-700">
          <CircleCheck aria-hidden="true" className="size-5" />
          {TEST_SUCCESS_MESSAGE}
        </p>
      );
    case 'unsupported':
      return <p className="text-sm text-gray-700">{TEST_UNSUPPORTED_MESSAGE}</p>;
    case 'failed':
      return (
        <p className="flex items-center gap-2 text-sm text-red-700">
          <CircleX aria-hidden="true" className="size-5" />
          {TEST_FAILED_MESSAGE}
        </p>
      );
    case 'error':
      return <pre className="max-h-96 overflow-auto rounded-md bg-red-50 p-3 font-mono text-xs whitespace-pre-wrap text-red-800">{outcome.detail}</pre>;
  }
}

export function TestConnectionDialog({ outcome, onClose }: TestConnectionDialogProps) {
  return (
    <Dialog
      open={outcome !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Test Connection Results"
      size="small"
      expandable={false}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {outcome && <OutcomeBody outcome={outcome} />}
    </Dialog>
  );
}
