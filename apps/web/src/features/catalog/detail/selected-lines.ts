import { logEvidenceLineIndexes } from '@opsdeck/shared';
import type { LinkableEvidence } from '@/lib/incident-link/incident-link-slot';

/** The query parameter that keeps the config tab's selected line numbers (spec 002 §2.1). */
export const SELECTED_PARAM = 'selected';

/**
 * `3-5,9` (or `3,4,5,9`) as [3, 4, 5, 9]: entries that are no line number of the content are skipped rather than
 * refused, so a hand-edited or outdated link still opens with what it can show.
 */
export function parseSelectedLines(text: string | null, lineCount: number): number[] {
  const lines = new Set<number>();
  for (const entry of (text ?? '').split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(entry);
    if (match === null) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    const from = Math.max(1, Math.min(first, last));
    const to = Math.min(lineCount, Math.max(first, last));
    for (let line = from; line <= to; line += 1) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

/** Sorted line numbers in their shortest form, runs written as ranges: [3, 4, 5, 9] is `3-5,9`. */
export function formatSelectedLines(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const runs: string[] = [];
  let start = sorted[0];
  let end = start;
  for (const line of [...sorted.slice(1), Number.NaN]) {
    if (start === undefined || end === undefined) break;
    if (line === end + 1) {
      end = line;
      continue;
    }
    runs.push(start === end ? String(start) : `${start}-${end}`);
    start = line;
    end = line;
  }
  return runs.join(',');
}

/**
 * Config evidence of spec 000 §3 for the selected lines: like log evidence it keeps each selected line with three
 * lines of context either side, and `selected_lines` indexes into the kept lines.
 */
export function configEvidence(config: { id: string; name: string }, content: string, selected: readonly number[]): LinkableEvidence {
  const all = content.split('\n');
  const kept = logEvidenceLineIndexes(
    all.length,
    selected.map((line) => line - 1),
  );
  const selectedIndexes = new Set(selected.map((line) => line - 1));
  return {
    type: 'config',
    config_id: config.id,
    description: config.name,
    evidence: {
      configName: config.name,
      lines: kept.map((index) => all[index] ?? ''),
      selected_lines: kept.flatMap((index, position) => (selectedIndexes.has(index) ? [position] : [])),
    },
  };
}
