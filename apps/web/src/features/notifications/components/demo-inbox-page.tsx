import { useState } from 'react';
import { Link } from 'react-router';
import { Mail, RefreshCw, Trash2, Webhook } from 'lucide-react';
import { formatDate, type DemoInbox, type DemoInboxMessage } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useDocumentTitle } from '@/lib/use-document-title';
import { DEMO_INBOX_REFRESH_MS, useClearDemoInbox, useDemoInboxQuery } from '../api/demo-inbox';

/** A webhook's JSON body, pretty-printed, and the words a person would read first (its title and message). */
export function readableBody(message: Pick<DemoInboxMessage, 'kind' | 'body' | 'subject'>): { heading: string | null; text: string } {
  if (message.kind === 'email') return { heading: message.subject, text: message.body };
  try {
    const parsed: unknown = JSON.parse(message.body);
    if (typeof parsed !== 'object' || parsed === null) return { heading: null, text: message.body };
    const record = parsed as Record<string, unknown>;
    const heading = [record.title, record.subject, record.text, record.message].find((value): value is string => typeof value === 'string' && value !== '');
    return { heading: heading ?? null, text: JSON.stringify(parsed, null, 2) };
  } catch {
    return { heading: null, text: message.body };
  }
}

function MessageItem({ message }: { message: DemoInboxMessage }) {
  const { heading, text } = readableBody(message);
  const Icon = message.kind === 'email' ? Mail : Webhook;
  const where = message.kind === 'email' ? `Mail to ${message.recipients.join(', ')}` : `Webhook ${message.channel}`;
  return (
    <li className="rounded-md border border-gray-200 bg-white p-3">
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gray-500" />
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words text-gray-900">{heading ?? where}</p>
          <p className="text-xs break-words text-gray-600">
            {where}
            {message.sender !== null && message.kind === 'email' ? ` · from ${message.sender}` : ''}
          </p>
        </div>
        <time dateTime={message.received_at} className="shrink-0 text-xs text-gray-600">
          {formatDate(message.received_at)}
        </time>
      </div>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm text-blue-700">{message.kind === 'email' ? 'Show the mail' : 'Show the body'}</summary>
        <pre className="mt-2 max-h-80 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs break-words whitespace-pre-wrap text-gray-800">{text}</pre>
      </details>
    </li>
  );
}

function InboxIntro({ inbox }: { inbox: DemoInbox }) {
  return (
    <p className="max-w-3xl text-sm text-gray-700">
      The demo&apos;s notification connections deliver here instead of to real people: its webhook connections post to{' '}
      <code className="font-mono text-xs [overflow-wrap:anywhere]">{inbox.webhook ?? '/api/demo-inbox/hooks/{channel}'}</code>
      {inbox.smtp === null ? '' : <> and its mail connection sends to <code className="font-mono text-xs">{inbox.smtp}</code></>}. New messages show up every{' '}
      {DEMO_INBOX_REFRESH_MS / 1000} s; the newest {inbox.keep} are kept.
    </p>
  );
}

/** Settings › Notifications › Demo inbox (#34): where the demo's deliveries arrive, so a new install shows them working. */
export function DemoInboxPage() {
  useDocumentTitle('Demo inbox');
  const inbox = useDemoInboxQuery({ poll: true });
  const clear = useClearDemoInbox();
  const { can } = usePermissions();
  const [confirming, setConfirming] = useState(false);
  const messages = inbox.data?.messages ?? [];

  return (
    <section className="flex min-h-0 min-w-0 flex-col gap-3 p-4">
      <header className="flex flex-wrap items-center gap-2">
        <div className="mr-auto">
          <SettingsTrail title="Demo inbox" parent={{ label: 'Notifications', to: '/settings/notifications' }} />
        </div>
        <Button variant="ghost" aria-label="Refresh" onClick={() => void inbox.refetch()} disabled={inbox.isFetching}>
          <RefreshCw aria-hidden="true" className="size-4" />
        </Button>
        {can('notifications', 'write') && inbox.data?.enabled === true && (
          <Button variant="secondary" onClick={() => setConfirming(true)} disabled={messages.length === 0}>
            <Trash2 aria-hidden="true" className="size-4" />
            Empty inbox
          </Button>
        )}
      </header>
      {inbox.isError ? (
        <QueryError subject="The demo inbox" error={inbox.error} onRetry={() => void inbox.refetch()} />
      ) : inbox.data === undefined ? (
        <p role="status" className="text-sm text-gray-600">
          Loading the demo inbox…
        </p>
      ) : !inbox.data.enabled ? (
        <p role="status" className="max-w-3xl text-sm text-gray-700">
          The demo inbox is off on this server: it receives only while the demo data is seeded (<code className="font-mono text-xs">OPSDECK_SEED_DEMO=true</code>).
          Your own connections deliver where they point.
        </p>
      ) : (
        <>
          <InboxIntro inbox={inbox.data} />
          {messages.length === 0 ? (
            <p role="status" className="rounded-md border border-dashed border-gray-300 p-6 text-center text-sm text-gray-600">
              Nothing has arrived yet. Send a test from a notification (open one under{' '}
              <Link to="/settings/notifications" className="text-blue-700 underline">
                Notifications
              </Link>
              , then Send test), or run the playbook &ldquo;Page the on-call channel&rdquo; on a failing check.
            </p>
          ) : (
            <ul aria-label="Received messages" className="flex flex-col gap-2">
              {messages.map((message) => (
                <MessageItem key={message.id} message={message} />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Empty the demo inbox?"
        message={`This deletes the ${messages.length} ${messages.length === 1 ? 'message' : 'messages'} shown here. Deliveries stay in each notification's history.`}
        confirmLabel="Empty inbox"
        isPending={clear.isPending}
        onConfirm={() => clear.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </section>
  );
}
