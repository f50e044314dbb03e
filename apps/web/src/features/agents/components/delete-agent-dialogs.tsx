import { useState } from 'react';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { Dialog } from '@/components/dialog/dialog';
import { useDeleteAgent } from '../api/delete-agent';

export interface DeleteAgentDialogsProps {
  agent: { id: string; name: string };
  /** Called when the dialogs close, whether the agent was deleted or not. */
  onClose: () => void;
  onDeleted?: () => void;
}

/**
 * Spec 001 §2.6: deleting asks first whether the resources the agent created go too (Yes or No), then to confirm.
 * Nothing is sent before the confirmation; a failure keeps the confirmation open and toasts the server's message.
 */
export function DeleteAgentDialogs({ agent, onClose, onDeleted }: DeleteAgentDialogsProps) {
  const [cleanup, setCleanup] = useState<boolean | null>(null);
  const deleteAgent = useDeleteAgent();

  const handleConfirm = () => {
    if (cleanup === null) return;
    deleteAgent.mutate(
      { id: agent.id, cleanup },
      {
        onSuccess: () => {
          onDeleted?.();
          onClose();
        },
      },
    );
  };

  if (cleanup === null) {
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={`Delete ${agent.name}`}
        size="very-small"
        expandable={false}
        footer={
          <>
            <Button variant="secondary" onClick={() => setCleanup(false)}>
              No
            </Button>
            <Button variant="danger" onClick={() => setCleanup(true)}>
              Yes
            </Button>
          </>
        }
      >
        <p className="text-sm text-gray-700">Also delete resources the agent created?</p>
        <p className="mt-2 text-xs text-gray-500">Yes also deletes its health checks, canaries, config items and scrapers.</p>
      </Dialog>
    );
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && !deleteAgent.isPending && onClose()}
      title="Delete agent?"
      message={
        cleanup
          ? `Delete the agent ${agent.name} and the health checks, canaries, config items and scrapers it created? Its access token stops working at once.`
          : `Delete the agent ${agent.name}? What it created is kept. Its access token stops working at once.`
      }
      confirmLabel="Delete"
      isPending={deleteAgent.isPending}
      onConfirm={handleConfirm}
    />
  );
}
