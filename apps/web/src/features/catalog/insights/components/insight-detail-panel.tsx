import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { SeverityBadge } from '@/components/status/severity-badge';
import { DetailSection, FactList, type Fact } from '../../components/detail-facts';
import type { InsightRow } from '../api/get-insights';
import { MESSAGE_PREVIEW_CHARS } from '../insight-params';
import { ConfigTypeMarker } from './config-type-marker';

export interface InsightDetailPanelProps {
  insight: InsightRow;
  onClose: () => void;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'object' && Object.keys(value).length === 0);
}

/** Spec 002 §2.1: a long message shows its first 500 characters until the reader asks for the rest. */
function Message({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > MESSAGE_PREVIEW_CHARS;
  return (
    <div className="flex flex-col items-start gap-1">
      <p data-testid="insight-message" className="text-sm break-words whitespace-pre-wrap text-gray-800">
        {long && !expanded ? `${text.slice(0, MESSAGE_PREVIEW_CHARS)}…` : text}
      </p>
      {long && (
        <Button variant="ghost" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : `Show all ${text.length} characters`}
        </Button>
      )}
    </div>
  );
}

/** One insight: what was found, where, by which analyzer and when; Escape, the close button or the overlay close it. */
export function InsightDetailPanel({ insight, onClose }: InsightDetailPanelProps) {
  const facts: Fact[] = [
    [
      'Config',
      <span key="config" className="inline-flex items-center gap-1.5">
        <ConfigTypeMarker type={insight.config_type} />
        <Link to={`/catalog/${insight.config_id}`} className="text-blue-700 hover:underline">
          {insight.config_name}
        </Link>
        {insight.config_deleted_at !== null && <span className="rounded bg-gray-200 px-1 text-xs font-medium text-gray-600">Deleted</span>}
      </span>,
    ],
    ['Type', insight.analysis_type],
    ['Analyzer', insight.analyzer],
    ['Severity', insight.severity ? <SeverityBadge key="severity" severity={insight.severity} /> : '—'],
    ['Status', <span key="status" className="capitalize">{insight.status}</span>],
    ['Source', insight.source ?? '—'],
    ['First observed', formatDate(insight.first_observed)],
    ['Last observed', formatDate(insight.last_observed)],
  ];

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="medium"
      title={insight.summary ?? `${insight.analyzer}: ${insight.config_name}`}
      footer={
        <Link to={`/catalog/${insight.config_id}/insights`} className="text-sm text-blue-700 hover:underline">
          Open {insight.config_name}'s insights
        </Link>
      }
    >
      <div className="flex flex-col gap-4">
        <FactList facts={facts} />
        <DetailSection title="Summary">
          <p className="text-sm text-gray-800">{insight.summary ?? 'No summary recorded.'}</p>
        </DetailSection>
        <DetailSection title="Message">{insight.message ? <Message text={insight.message} /> : <p className="text-sm text-gray-500">No message recorded.</p>}</DetailSection>
        <DetailSection title="Analysis">
          {isEmpty(insight.analysis) ? (
            <p className="text-sm text-gray-500">No analysis recorded.</p>
          ) : (
            <pre className="max-h-96 overflow-auto rounded-md border border-gray-200 bg-gray-50 p-2 font-mono text-xs text-gray-800">{JSON.stringify(insight.analysis, null, 2)}</pre>
          )}
        </DetailSection>
      </div>
    </Dialog>
  );
}
