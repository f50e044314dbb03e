import { Tabs } from 'radix-ui';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { QueryError } from '@/components/status/query-error';
import { useNotificationQuery } from '../api/get-notification';
import { useSaveNotification } from '../api/save-notification';
import { useSendTestNotification } from '../api/send-test-notification';
import { isEditableSource, notificationFormValues, toNotificationInput, type NotificationFormValues } from '../notification-form-model';
import { NotificationForm } from './notification-form';
import { NotificationSendHistory } from './notification-send-history';
import { TAB_TRIGGER } from './tab-styles';

const FORM_ID = 'notification-editor-form';

export type NotificationEditorMode = { kind: 'create' } | { kind: 'edit'; id: string };

export interface NotificationEditorDialogProps {
  mode: NotificationEditorMode;
  /** Whether the user may write notifications; without it the editor only shows. */
  canWrite: boolean;
  onClose: () => void;
}

interface FooterProps {
  isSaving: boolean;
  showSave: boolean;
  onClose: () => void;
  /** Send test, for a saved notification its viewer may write (#34 item 18). */
  testId?: string;
}

function SendTestButton({ id }: { id: string }) {
  const sendTest = useSendTestNotification();
  return (
    <Button
      variant="secondary"
      className="mr-auto"
      title="Sends a test message to each recipient now. Real messages go out when a resource changes health, not while it stays the same."
      onClick={() => sendTest.mutate(id)}
      isPending={sendTest.isPending}
    >
      Send test
    </Button>
  );
}

function EditorFooter({ isSaving, showSave, onClose, testId }: FooterProps) {
  return (
    <>
      {testId !== undefined && <SendTestButton id={testId} />}
      <Button variant="secondary" onClick={onClose} disabled={isSaving}>
        {showSave ? 'Cancel' : 'Close'}
      </Button>
      {showSave && (
        <Button type="submit" form={FORM_ID} isPending={isSaving}>
          Save
        </Button>
      )}
    </>
  );
}

function useSubmit(id: string | null, onClose: () => void) {
  const save = useSaveNotification();
  const submit = async (values: NotificationFormValues) => {
    await save.mutateAsync({ id, input: toNotificationInput(values) });
    onClose();
  };
  return { submit, isSaving: save.isPending };
}

function CreateNotification({ onClose }: { onClose: () => void }) {
  const { submit, isSaving } = useSubmit(null, onClose);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Create Notification" size="medium" footer={<EditorFooter isSaving={isSaving} showSave onClose={onClose} />}>
      <NotificationForm formId={FORM_ID} defaultValues={notificationFormValues()} disabled={false} onSubmit={submit} />
    </Dialog>
  );
}

function EditNotification({ id, canWrite, onClose }: { id: string; canWrite: boolean; onClose: () => void }) {
  const notification = useNotificationQuery(id);
  const { submit, isSaving } = useSubmit(id, onClose);
  const editable = canWrite && notification.data !== undefined && isEditableSource(notification.data.source);
  const source = notification.data?.source;

  let body;
  if (notification.isError) body = <QueryError subject="Notification" error={notification.error} onRetry={() => void notification.refetch()} />;
  else if (notification.data === undefined) body = <p className="text-sm text-gray-500">Loading…</p>;
  else {
    body = (
      <Tabs.Root defaultValue="spec" className="flex flex-col gap-3">
        <Tabs.List aria-label="Notification" className="flex gap-1 border-b border-gray-200">
          <Tabs.Trigger value="spec" className={TAB_TRIGGER}>
            Spec
          </Tabs.Trigger>
          <Tabs.Trigger value="history" className={TAB_TRIGGER}>
            Delivery History
          </Tabs.Trigger>
        </Tabs.List>
        {/* Mounted while hidden, so a look at the history never discards what was typed in the form. */}
        <Tabs.Content value="spec" forceMount className="flex flex-col gap-3 data-[state=inactive]:hidden">
          {!isEditableSource(source) && (
            <p role="note" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
              This notification comes from {source} and is read-only here; change it where it is defined.
              {notification.data.template_syntax === 'gotemplate' && ' Its title and template are Go templates, as Mission Control writes them ({{.check.name}}).'}
            </p>
          )}
          <NotificationForm
            formId={FORM_ID}
            defaultValues={notificationFormValues(notification.data)}
            disabled={!editable}
            onSubmit={submit}
            syntax={notification.data.template_syntax}
          />
        </Tabs.Content>
        <Tabs.Content value="history">
          <NotificationSendHistory notificationId={id} />
        </Tabs.Content>
      </Tabs.Root>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Edit Notification"
      size="large"
      footer={<EditorFooter isSaving={isSaving} showSave={editable} onClose={onClose} {...(canWrite && notification.data !== undefined ? { testId: id } : {})} />}
    >
      {body}
    </Dialog>
  );
}

/** 'Create Notification' or 'Edit Notification' (spec 001 §2.7), the latter with the notification's deliveries. */
export function NotificationEditorDialog({ mode, canWrite, onClose }: NotificationEditorDialogProps) {
  if (mode.kind === 'create') return <CreateNotification onClose={onClose} />;
  return <EditNotification id={mode.id} canWrite={canWrite} onClose={onClose} />;
}
