import { useMemo, useState } from 'react';
import { Link2 } from 'lucide-react';
import { Button } from '@/components/button/button';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { usePermissions } from '@/lib/auth/permissions';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { useIncidentLinkDialog } from '@/lib/incident-link/incident-link-slot';
import type { ConfigDetail } from '../api/get-config-detail';
import { useSearchUpdate } from '../../utils/use-search-update';
import { configContent } from '../config-content';
import { SELECTED_PARAM, configEvidence, formatSelectedLines, parseSelectedLines } from '../selected-lines';

/** 'Link to incident' with the selected lines; only for users who may write incidents while that area is on. */
function LinkToIncident({ config, content, selected }: { config: ConfigDetail; content: string; selected: readonly number[] }) {
  const LinkDialog = useIncidentLinkDialog();
  const { can } = usePermissions();
  const { isEnabled } = useFeatureFlags();
  const [open, setOpen] = useState(false);
  if (LinkDialog === null || !isEnabled('incidents') || !can('incident', 'write')) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Link2 aria-hidden="true" className="size-4" />
        Link to incident
      </Button>
      {open && <LinkDialog open onOpenChange={setOpen} evidence={configEvidence(config, content, selected)} />}
    </>
  );
}

function selectionText(lines: readonly number[]): string {
  if (lines.length === 0) return 'Click a line number to select it; Shift extends the selection, Ctrl or Cmd adds a line.';
  return `${lines.length === 1 ? 'Line' : 'Lines'} ${formatSelectedLines(lines).replaceAll(',', ', ')} selected`;
}

/** The Config tab: the item's content, read-only, with lines to select (kept in `selected`) and link to an incident. */
export function ConfigContentTab({ config }: { config: ConfigDetail }) {
  const [search, update] = useSearchUpdate();
  const content = useMemo(() => configContent(config.config, config.format), [config.config, config.format]);
  const lineCount = content.text.split('\n').length;
  const selectedParam = search.get(SELECTED_PARAM);
  const selected = useMemo(() => parseSelectedLines(selectedParam, lineCount), [selectedParam, lineCount]);

  const handleSelectedLinesChange = (lines: number[]) => update({ [SELECTED_PARAM]: formatSelectedLines(lines) });

  if (content.text === '') return <p className="py-8 text-center text-sm text-gray-500">This item has no content</p>;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <p id="config-selection" className="text-xs text-gray-600" aria-live="polite">
          {selectionText(selected)}
        </p>
        <div className="ml-auto flex items-center gap-2">
          <LinkToIncident config={config} content={content.text} selected={selected} />
        </div>
      </div>
      <CodeEditor
        value={content.text}
        language={content.language}
        readOnly
        ariaLabel={`Content of ${config.name}`}
        ariaDescribedBy="config-selection"
        rows={20}
        selectedLines={selected}
        onSelectedLinesChange={handleSelectedLinesChange}
      />
    </div>
  );
}
