import { Link } from 'react-router';
import { Link2 } from 'lucide-react';
import type { IntegrationOrigin } from '../integration-source';

const BADGE_CLASS = 'inline-flex items-center gap-1 rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-200 ring-inset';

export interface IntegrationSourceBadgeProps {
  origin: Exclude<IntegrationOrigin, { kind: 'ui' }>;
}

/** 'Linked to …': what owns a resource made outside the UI, linking to it when it has a page. */
export function IntegrationSourceBadge({ origin }: IntegrationSourceBadgeProps) {
  const content = (
    <>
      <Link2 aria-hidden="true" className="size-3.5" />
      Linked to {origin.label}
    </>
  );
  const href = 'href' in origin ? origin.href : null;
  return href === null ? (
    <span className={BADGE_CLASS}>{content}</span>
  ) : (
    <Link to={href} className={`${BADGE_CLASS} hover:underline focus-visible:outline-2 focus-visible:outline-blue-500`}>
      {content}
    </Link>
  );
}
