import { logEvidenceLineIndexes, type LogLine } from '@opsdeck/shared';
import type { LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import type { LogSubjectKind } from './log-subjects';

export interface LogEvidenceSource {
  /** What the lines are the logs of: the evidence points at the component or at the config item. */
  subject: { kind: LogSubjectKind; id: string; name: string };
  /** The log selector the lines came from. */
  selector: string;
  /** The time range they were read over, as the page's `start`. */
  start: string;
  /** The lines as the page shows them (after the label filters), newest first. */
  lines: readonly LogLine[];
  /** Indexes into `lines`. */
  selected: readonly number[];
}

/** A stored log line is the record spec 000 §3 names (time, message, labels); the answer's id means nothing later. */
function storedLine({ timestamp, message, labels }: LogLine) {
  return timestamp === null ? { message, labels } : { timestamp, message, labels };
}

/**
 * Log evidence of spec 000 §3 for the selected lines: like the config page's line evidence it keeps each selected
 * line with three lines of context either side, in the order shown, and `selected_lines` indexes into the kept lines.
 * Context comes from the lines on screen, so with label filters it stays within the stream the user narrowed to.
 */
export function logEvidence({ subject, selector, start, lines, selected }: LogEvidenceSource): LinkableEvidence {
  const kept = logEvidenceLineIndexes(lines.length, selected);
  const isSelected = new Set(selected);
  return {
    type: 'log',
    ...(subject.kind === 'config' ? { config_id: subject.id } : { component_id: subject.id }),
    description: `Logs of ${subject.name} (${selector})`,
    evidence: {
      lines: kept.flatMap((index) => {
        const line = lines[index];
        return line === undefined ? [] : [storedLine(line)];
      }),
      selected_lines: kept.flatMap((index, position) => (isSelected.has(index) ? [position] : [])),
      start,
    },
  };
}
