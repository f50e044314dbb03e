import { useState } from 'react';
import { KeyRound, Trash2 } from 'lucide-react';
import { formatDate } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { QueryError } from '@/components/status/query-error';
import { usePermissions } from '@/lib/auth/permissions';
import { useApiTokensQuery, type ApiToken } from '../api/get-api-tokens';
import { useRevokeApiToken } from '../api/revoke-api-token';
import { CreateApiTokenDialog } from './create-api-token-dialog';

export const NO_TOKENS_MESSAGE = 'You have no API tokens.';

function isExpired(token: ApiToken, now: number): boolean {
  return Date.parse(token.expires_at) <= now;
}

function When({ at, empty = '—' }: { at: string | null; empty?: string }) {
  if (at === null) return <span className="text-gray-500">{empty}</span>;
  return (
    <time dateTime={at} title={formatDate(at, 'datetime-seconds')}>
      {formatDate(at)}
    </time>
  );
}

function TokenRow({ token, now, onRevoke }: { token: ApiToken; now: number; onRevoke: (token: ApiToken) => void }) {
  const expired = isExpired(token, now);
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-1 py-3 text-sm" aria-label={token.name}>
      <div className="flex min-w-0 flex-1 basis-48 flex-col">
        <span className="flex items-center gap-2 font-medium text-gray-900">
          <KeyRound aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
          <span className="truncate">{token.name}</span>
          <span className="rounded bg-blue-50 px-1.5 py-0.5 text-xs font-normal text-blue-800">{token.role}</span>
          {expired && <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs font-normal text-red-700">Expired</span>}
        </span>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-gray-600 sm:grid-cols-[auto_1fr_auto_1fr_auto_1fr]">
          <dt>Created</dt>
          <dd>
            <When at={token.created_at} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <When at={token.expires_at} />
          </dd>
          <dt>Last used</dt>
          <dd>
            <When at={token.last_used_at} empty="Never" />
          </dd>
        </dl>
      </div>
      <Button variant="ghost" aria-label={`Revoke ${token.name}`} title="Revoke" onClick={() => onRevoke(token)}>
        <Trash2 aria-hidden="true" className="size-4" />
        <span className="sm:hidden">Revoke</span>
      </Button>
    </li>
  );
}

type DialogState = { kind: 'closed' } | { kind: 'create' } | { kind: 'revoke'; token: ApiToken };

/**
 * The profile page's 'API Tokens' card (#19): personal tokens for scripts and integrations, sent as
 * `Authorization: Bearer odt_…`. Created with a role no higher than one's own and an expiry, shown once, revoked here.
 */
export function ApiTokensCard() {
  const tokens = useApiTokensQuery();
  const { roles, isReady } = usePermissions();
  const revoke = useRevokeApiToken();
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const now = Date.now();
  const closeDialog = (open: boolean) => {
    if (!open) setDialog({ kind: 'closed' });
  };

  return (
    <section aria-labelledby="settings-card-api-tokens" className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1">
          <h2 id="settings-card-api-tokens" className="text-base font-semibold text-gray-900">
            API Tokens
          </h2>
          <p className="mt-1 text-sm text-gray-600">
            Tokens let scripts call the API as you, with the role you give them. Send one as <code className="font-mono text-xs">Authorization: Bearer</code>; it is
            shown only when created.
          </p>
        </div>
        <Button variant="secondary" disabled={!isReady} onClick={() => setDialog({ kind: 'create' })}>
          Create token
        </Button>
      </div>
      <div className="mt-4">
        {tokens.isError ? (
          <QueryError subject="API tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.isPending ? (
          <p className="text-sm text-gray-500" role="status">
            Loading API tokens…
          </p>
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-gray-500">{NO_TOKENS_MESSAGE}</p>
        ) : (
          <ul aria-label="API tokens" className="divide-y divide-gray-200">
            {tokens.data.map((token) => (
              <TokenRow key={token.id} token={token} now={now} onRevoke={(chosen) => setDialog({ kind: 'revoke', token: chosen })} />
            ))}
          </ul>
        )}
      </div>
      {dialog.kind === 'create' && <CreateApiTokenDialog ownRoles={roles} onOpenChange={closeDialog} />}
      {dialog.kind === 'revoke' && (
        <ConfirmDialog
          open
          onOpenChange={closeDialog}
          title="Revoke API token?"
          message={`Scripts using “${dialog.token.name}” stop working at once. This cannot be undone.`}
          confirmLabel="Revoke"
          isPending={revoke.isPending}
          onConfirm={() => revoke.mutate(dialog.token.id, { onSettled: () => setDialog({ kind: 'closed' }) })}
        />
      )}
    </section>
  );
}
