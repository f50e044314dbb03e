import { useState } from 'react';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { useCreateAgent } from '../api/create-agent';
import { useAgentQuery } from '../api/get-agent';
import { useUpdateAgent } from '../api/update-agent';
import { agentFormValues, toCreateInput, toUpdateInput, type AgentFormValues } from '../agent-form-model';
import type { InstallationTarget } from '../installation-instructions';
import { AgentForm } from './agent-form';
import { AgentInstallationInstructions } from './agent-installation-instructions';

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

function EditAgent({ id, readOnly, onClose }: { id: string; readOnly: boolean; onClose: () => void }) {
  const agent = useAgentQuery(id);
  const updateAgent = useUpdateAgent();
  const handleSubmit = (values: AgentFormValues) => updateAgent.mutate({ id, input: toUpdateInput(values) }, { onSuccess: onClose });

  const footer = readOnly ? (
    <Button variant="secondary" onClick={onClose}>
      Close
    </Button>
  ) : (
    <>
      <Button variant="secondary" onClick={onClose} disabled={updateAgent.isPending}>
        Cancel
      </Button>
      <Button type="submit" form={FORM_ID} isPending={updateAgent.isPending} disabled={agent.data === undefined}>
        {updateAgent.isPending ? 'Saving ...' : 'Save'}
      </Button>
    </>
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={readOnly ? (agent.data?.name ?? 'Agent') : 'Edit Agent'} size="small" footer={footer}>
      {agent.data !== undefined ? (
        <AgentForm
          key={agent.data.id}
          formId={FORM_ID}
          defaultValues={agentFormValues(agent.data)}
          isEditing
          disabled={readOnly || updateAgent.isPending}
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
  );
}

/**
 * The agent editor of spec 001 §2.6 and §4: creating ends with Next and then the installation instructions (the only
 * time the access token is shown); editing loads the agent, keeps its name read-only and saves with Save.
 */
export function AgentEditorDialog({ mode, readOnly = false, onClose }: AgentEditorDialogProps) {
  if (mode.kind === 'edit') return <EditAgent id={mode.id} readOnly={readOnly} onClose={onClose} />;
  return <CreateAgent onClose={onClose} />;
}
