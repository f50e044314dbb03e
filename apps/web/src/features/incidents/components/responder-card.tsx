import { useState } from 'react';
import { HoverCard } from 'radix-ui';
import { clsx } from 'clsx';
import { ExternalLink, Trash2, Users } from 'lucide-react';
import { DEBOUNCE_MS, RESPONDER_PROGRESS_STEPS, formatDate, responderProgressStep } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import { Button } from '@/components/button/button';
import { ConfirmDialog } from '@/components/dialog/confirm-dialog';
import { useDeleteResponder } from '../api/delete-responder';
import type { Responder } from '../api/types';

export function responderName(responder: Responder): string {
  return responder.person?.name ?? responder.team?.name ?? 'Unknown responder';
}

function responderTypeOf(responder: Responder): string {
  const type = responder.properties.responderType;
  return typeof type === 'string' ? type : responder.type;
}

/** Only http(s) links are followed; anything else is shown as text. */
function externalLink(responder: Responder): string | null {
  const link = responder.properties.link;
  if (typeof link === 'string' && /^https?:\/\//i.test(link)) return link;
  const linkUrl = responder.team?.spec?.responder_clients?.[responderTypeOf(responder)]?.linkUrl;
  if (typeof linkUrl === 'string' && responder.external_id && /^https?:\/\//i.test(linkUrl)) {
    return `${linkUrl.replace(/\/$/, '')}/${encodeURIComponent(responder.external_id)}`;
  }
  return null;
}

export function ResponderProgress({ responder }: { responder: Responder }) {
  const current = responderProgressStep(responder);
  const currentIndex = RESPONDER_PROGRESS_STEPS.indexOf(current);
  return (
    <ol aria-label={`Progress: ${current}`} className="flex items-center gap-1">
      {RESPONDER_PROGRESS_STEPS.map((step, index) => (
        <li
          key={step}
          title={step}
          aria-current={step === current ? 'step' : undefined}
          className={clsx('h-1.5 w-6 rounded-full', index < currentIndex ? 'bg-green-500' : index === currentIndex ? 'bg-blue-500' : 'bg-gray-200')}
        >
          <span className="sr-only">{step}</span>
        </li>
      ))}
    </ol>
  );
}

/** A responder with its progress; hovering a second opens the details. */
export function ResponderCard({ responder, canWrite }: { responder: Responder; canWrite: boolean }) {
  const deleteResponder = useDeleteResponder();
  const [isConfirming, setIsConfirming] = useState(false);
  const name = responderName(responder);
  const link = externalLink(responder);
  const fields = Object.entries(responder.properties).filter(([key, value]) => key !== 'responderType' && typeof value === 'string');

  return (
    <li className="flex items-center gap-2 rounded-md border border-gray-200 bg-white p-2 text-sm">
      <HoverCard.Root openDelay={DEBOUNCE_MS.responderHover} closeDelay={100}>
        <HoverCard.Trigger asChild>
          <span tabIndex={0} className="flex min-w-0 flex-1 items-center gap-2 focus:outline-2 focus:outline-blue-500">
            {responder.person ? (
              <Avatar name={name} src={responder.person.avatar} size="sm" />
            ) : (
              <Users aria-hidden="true" className="size-5 shrink-0 text-gray-500" />
            )}
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium text-gray-900">{name}</span>
              <span className="block text-xs text-gray-500">{responderTypeOf(responder)}</span>
              {responder.unreadable !== undefined && (
                <span className="block text-xs text-red-700">This responder's details could not be shown: {responder.unreadable}</span>
              )}
            </span>
            <ResponderProgress responder={responder} />
          </span>
        </HoverCard.Trigger>
        <HoverCard.Portal>
          <HoverCard.Content side="left" sideOffset={6} className="z-50 w-72 rounded-md bg-white p-3 text-sm shadow-lg ring-1 ring-gray-200">
            <p className="font-semibold text-gray-900">{name}</p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
              <dt className="text-gray-500">Type</dt>
              <dd>{responderTypeOf(responder)}</dd>
              <dt className="text-gray-500">Status</dt>
              <dd>{responderProgressStep(responder)}</dd>
              <dt className="text-gray-500">Created</dt>
              <dd>{formatDate(responder.created_at)}</dd>
              {responder.acknowledge_time && (
                <>
                  <dt className="text-gray-500">Acknowledged</dt>
                  <dd>{formatDate(responder.acknowledge_time)}</dd>
                </>
              )}
              {responder.signoff_time && (
                <>
                  <dt className="text-gray-500">Resolved</dt>
                  <dd>{formatDate(responder.signoff_time)}</dd>
                </>
              )}
              {responder.close_time && (
                <>
                  <dt className="text-gray-500">Closed</dt>
                  <dd>{formatDate(responder.close_time)}</dd>
                </>
              )}
              {fields.map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="text-gray-500">{key}</dt>
                  <dd className="truncate">{String(value)}</dd>
                </div>
              ))}
            </dl>
          </HoverCard.Content>
        </HoverCard.Portal>
      </HoverCard.Root>
      {responder.external_id &&
        (link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-0.5 text-xs text-blue-700 hover:underline">
            {responder.external_id}
            <ExternalLink aria-hidden="true" className="size-3" />
          </a>
        ) : (
          <span className="text-xs text-gray-600">{responder.external_id}</span>
        ))}
      {canWrite && (
        <Button variant="ghost" className="px-1.5" aria-label={`Remove responder ${name}`} onClick={() => setIsConfirming(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      )}
      {isConfirming && (
        <ConfirmDialog
          open
          onOpenChange={setIsConfirming}
          title="Remove responder"
          message={`Remove ${name} from the responders of this incident?`}
          confirmLabel="Remove"
          isPending={deleteResponder.isPending}
          onConfirm={() => deleteResponder.mutate(responder.id, { onSettled: () => setIsConfirming(false) })}
        />
      )}
    </li>
  );
}
