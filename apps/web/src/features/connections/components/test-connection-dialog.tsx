import { CircleCheck, CircleX } from 'lucide-react';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { TEST_FAILED_MESSAGE, TEST_SUCCESS_MESSAGE, TEST_UNSUPPORTED_MESSAGE, type ConnectionTestFailure, type ConnectionTestOutcome } from '../api/test-connection';

export interface TestConnectionDialogProps {
  /** Nothing to show closes the dialog. */
  outcome: ConnectionTestOutcome | null;
  onClose: () => void;
}

function FailureBody({ headline, failure }: { headline: string; failure: ConnectionTestFailure }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p role="alert" className="flex items-start gap-2 text-red-700">
        <CircleX aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <span className="break-words">{headline}</span>
      </p>
      {failure.explanation.map((line) => (
        <p key={line} className="break-words text-gray-700">
          {line}
        </p>
      ))}
      {failure.raw !== null && (
        <details className="rounded-md border border-gray-200">
          <summary className="cursor-pointer px-3 py-1.5 text-gray-600">Details</summary>
          <pre className="max-h-72 overflow-auto border-t border-gray-200 bg-gray-50 p-3 font-mono text-xs whitespace-pre-wrap text-gray-800">{failure.raw}</pre>
        </details>
      )}
    </div>
  );
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
      return <FailureBody headline={TEST_FAILED_MESSAGE} failure={outcome} />;
    case 'error':
      // A refused test says why in the server's own sentence; the raw answer, codes included, stays folded.
      return <FailureBody headline={outcome.message ?? TEST_FAILED_MESSAGE} failure={outcome} />;
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
