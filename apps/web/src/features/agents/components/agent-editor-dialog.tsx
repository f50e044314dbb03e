import { useState } from 'react';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { useCreateAgent } from '../api/create-agent';
import { useAgentQuery } from '../api/get-agent';
import { useRotateAgentToken } from '../api/rotate-agent-token';
import { useUpdateAgent } from '../api/update-agent';
import { agentFormValues, toCreateInput, toUpdateInput, type AgentFormValues } from '../agent-form-model';
import type { InstallationTarget } from '../installation-instructions';
import { AgentForm } from './agent-form';
import { AgentInstallationInstructions } from './agent-installation-instructions';
import { DeleteAgentDialogs } from './delete-agent-dialogs';

const FORM_ID = 'agent-editor-form';

export type AgentEditorMode = { kind: 'create' } | { kind: 'edit'; id: string };

export interface AgentEditorDialogProps {
  mode: AgentEditorMode;
  /** For users who may read agents but not write them: the agent is shown without a Save button. */
  readOnly?: boolean;
  onClose: () => void;
}

function CreateAgent({ onClose }: { onClose: () => void }) {
  const createAgent = useCreateAgent();
  const [installation, setInstallation] = useState<InstallationTarget | null>(null);
  const [confirmingClose, setConfirmingClose] = useState(false);

  const handleSubmit = (values: AgentFormValues) => {
    const input = toCreateInput(values);
    createAgent.mutate(input, {
      onSuccess: (created) =>
        setInstallation({
          serverUrl: window.location.origin,
          agentName: created.name,
          accessToken: created.access_token,
          kubernetes: input.kubernetes,
          pushTelemetry: input.pushTelemetry,
        }),
    });
  };

  if (installation !== null) {
    // Escape or a stray click outside would lose a token that is never shown again: those ask first, Done does not.
    return (
      <>
        <Dialog open onOpenChange={(open) => !open && setConfirmingClose(true)} title="Installation Instructions" size="medium" footer={<Button onClick={onClose}>Done</Button>}>
          <AgentInstallationInstructions target={installation} />
        </Dialog>
        <ConfirmDialog
          open={confirmingClose}
          onOpenChange={setConfirmingClose}
          title="Close the installation instructions?"
          message="The access token of this agent will not be shown again."
          confirmLabel="Close"
          cancelLabel="Keep open"
          onConfirm={onClose}
        />
      </>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Agent"
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={createAgent.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={FORM_ID} isPending={createAgent.isPending}>
            Next
          </Button>
        </>
      }
    >
      <AgentForm formId={FORM_ID} defaultValues={agentFormValues()} isEditing={false} disabled={createAgent.isPending} onSubmit={handleSubmit} />
    </Dialog>
  );
}

/** Where the editor is, beyond the form: deleting, confirming a rotation, or showing the rotated token once. */
type EditStep = { kind: 'form' } | { kind: 'deleting' } | { kind: 'confirm-rotate' } | { kind: 'rotated'; target: InstallationTarget };

function EditAgent({ id, readOnly, onClose }: { id: string; readOnly: boolean; onClose: () => void }) {
  const agent = useAgentQuery(id);
  const updateAgent = useUpdateAgent();
  const rotateToken = useRotateAgentToken();
  const [step, setStep] = useState<EditStep>({ kind: 'form' });
  const [confirmingClose, setConfirmingClose] = useState(false);
  const handleSubmit = (values: AgentFormValues) => updateAgent.mutate({ id, input: toUpdateInput(values) }, { onSuccess: onClose });

  const handleRotate = () => {
    const current = agent.data;
    if (current === undefined) return;
    rotateToken.mutate(id, {
      onSuccess: (rotated) =>
        setStep({
          kind: 'rotated',
          target: {
            serverUrl: window.location.origin,
            agentName: rotated.name,
            accessToken: rotated.access_token,
            kubernetes: current.kubernetes,
            pushTelemetry: current.pushTelemetry,
          },
        }),
      onError: () => setStep({ kind: 'form' }),
    });
  };

  if (step.kind === 'rotated') {
    // As after creation: the new token is never shown again, so only Done closes without asking.
    return (
      <>
        <Dialog open onOpenChange={(open) => !open && setConfirmingClose(true)} title="New Access Token" size="medium" footer={<Button onClick={onClose}>Done</Button>}>
          <AgentInstallationInstructions target={step.target} />
        </Dialog>
        <ConfirmDialog
          open={confirmingClose}
          onOpenChange={setConfirmingClose}
          title="Close the installation instructions?"
          message="The new access token of this agent will not be shown again."
          confirmLabel="Close"
          cancelLabel="Keep open"
          onConfirm={onClose}
        />
      </>
    );
  }
  if (step.kind === 'deleting' && agent.data !== undefined) {
    return <DeleteAgentDialogs agent={agent.data} onClose={() => setStep({ kind: 'form' })} onDeleted={onClose} />;
  }

  const busy = updateAgent.isPending || rotateToken.isPending;
  const footer = readOnly ? (
    <Button variant="secondary" onClick={onClose}>
      Close
    </Button>
  ) : (
    <>
      <div className="mr-auto flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => setStep({ kind: 'deleting' })} disabled={agent.data === undefined || busy}>
          Delete
        </Button>
        <Button variant="secondary" onClick={() => setStep({ kind: 'confirm-rotate' })} disabled={agent.data === undefined || busy}>
          Rotate token
        </Button>
      </div>
      <Button variant="secondary" onClick={onClose} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" form={FORM_ID} isPending={updateAgent.isPending} disabled={agent.data === undefined || rotateToken.isPending}>
        {updateAgent.isPending ? 'Saving ...' : 'Save'}
      </Button>
    </>
  );

  return (
    <>
      <Dialog open onOpenChange={(open) => !open && onClose()} title={readOnly ? (agent.data?.name ?? 'Agent') : 'Edit Agent'} size="small" footer={footer}>
        {agent.data !== undefined ? (
          <AgentForm
            key={agent.data.id}
            formId={FORM_ID}
            defaultValues={agentFormValues(agent.data)}
            isEditing
            disabled={readOnly || busy}
            onSubmit={handleSubmit}
          />
        ) : agent.isError ? (
          <QueryError error={agent.error} onRetry={() => void agent.refetch()} />
        ) : (
          <p aria-busy="true" className="py-8 text-center text-sm text-gray-500">
            Loading agent…
          </p>
        )}
      </Dialog>
      <ConfirmDialog
        open={step.kind === 'confirm-rotate'}
        onOpenChange={(open) => !open && !rotateToken.isPending && setStep({ kind: 'form' })}
        title="Rotate the access token?"
        message="A new token is made and shown once; the current token stops working at once, so the agent must be reinstalled or reconfigured with the new one."
        confirmLabel="Rotate token"
        isPending={rotateToken.isPending}
        onConfirm={handleRotate}
      />
    </>
  );
}

/**
 * The agent editor of spec 001 §2.6 and §4: creating ends with Next and then the installation instructions (the only
 * time the access token is shown); editing loads the agent, keeps its name read-only and saves with Save, and with
 * write permission also deletes the agent or rotates its token (the new one shown once, with the instructions).
 */
export function AgentEditorDialog({ mode, readOnly = false, onClose }: AgentEditorDialogProps) {
  if (mode.kind === 'edit') return <EditAgent id={mode.id} readOnly={readOnly} onClose={onClose} />;
  return <CreateAgent onClose={onClose} />;
}
