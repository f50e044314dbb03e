import { useMutation } from '@tanstack/react-query';
import type { PlaybookActionResult, PlaybookRun, PlaybookRunAction } from '@opsdeck/shared';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { downloadFile } from '@/lib/download-file';
import { getPlaybookRun, getPlaybookRunAction } from './get-playbook-run';

export const DOWNLOADED_LOGS_MESSAGE = 'Downloaded logs';
export const DOWNLOAD_LOGS_FAILED_MESSAGE = 'Failed to download logs';
/** The name of the synthetic first step that holds a failed run's own error (spec 001 §4). */
export const INITIALIZATION_STEP = 'Initialization';

function section(title: string, text: string | undefined): string[] {
  return text === undefined || text === '' ? [] : [`--- ${title} ---`, text.replace(/\n$/, '')];
}

function resultLines(result: PlaybookActionResult | null): string[] {
  if (result === null) return [];
  const lines: string[] = [];
  if (result.exitCode !== undefined) lines.push(`exit code: ${result.exitCode}`);
  if (result.status !== undefined) lines.push(`http status: ${result.status}`);
  lines.push(...section('stdout', result.stdout), ...section('stderr', result.stderr), ...section('logs', result.logs), ...section('body', result.body));
  if (result.rows !== undefined) lines.push(...section('rows', result.rows.map((row) => JSON.stringify(row)).join('\n')));
  if (result.rowCount !== undefined) lines.push(`rows: ${result.rowCount}`);
  if (result.truncated) lines.push('(output truncated at the size limit)');
  return lines;
}

/** One action as a block of the log file: a heading with status and times, its error, then its output. */
export function actionLogText(action: PlaybookRunAction): string {
  const times = [action.start_time && `started ${action.start_time}`, action.end_time && `ended ${action.end_time}`].filter(Boolean).join(', ');
  const lines = [`=== ${action.name} [${action.status}]${times === '' ? '' : ` ${times}`}`, ...section('error', action.error ?? undefined), ...resultLines(action.result)];
  return `${lines.join('\n')}\n`;
}

/** The whole run: its header, the Initialization step when the run itself failed, then every action in order. */
export function runLogText(run: PlaybookRun): string {
  const header = [
    `Playbook: ${run.playbooks?.title ?? run.playbooks?.name ?? run.playbook_id}`,
    `Run: ${run.id}`,
    `Status: ${run.status}`,
    `Created: ${run.created_at}`,
    ...(run.start_time === null ? [] : [`Started: ${run.start_time}`]),
    ...(run.end_time === null ? [] : [`Ended: ${run.end_time}`]),
    ...(run.target === null ? [] : [`Resource: ${run.target.type} ${run.target.name} (${run.target.id})`]),
  ];
  const blocks = [header.join('\n') + '\n'];
  if (run.status === 'failed' && run.error) blocks.push(`=== ${INITIALIZATION_STEP} [failed]\n--- error ---\n${run.error}\n`);
  blocks.push(...run.actions.map(actionLogText));
  return blocks.join('\n');
}

function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'action';
}

/** All of the run, one action of it, or its Initialization step (which needs no request: the error is the run's). */
export type RunLogsSelection = { kind: 'run'; runId: string } | { kind: 'action'; runId: string; actionId: string } | { kind: 'initialization'; runId: string };

export interface RunLogsFile {
  fileName: string;
  text: string;
}

/** Reads the run or action again so the file holds the output as stored now, not as the page last polled it. */
export async function fetchRunLogs(selection: RunLogsSelection): Promise<RunLogsFile> {
  const prefix = `playbook-run-${selection.runId}`;
  if (selection.kind === 'action') {
    const action = await getPlaybookRunAction(selection.actionId);
    return { fileName: `${prefix}-${fileSafe(action.name)}.log`, text: actionLogText(action) };
  }
  const run = await getPlaybookRun(selection.runId);
  if (selection.kind === 'initialization') {
    return { fileName: `${prefix}-${INITIALIZATION_STEP.toLowerCase()}.log`, text: `=== ${INITIALIZATION_STEP} [${run.status}]\n--- error ---\n${run.error ?? ''}\n` };
  }
  return { fileName: `${prefix}.log`, text: runLogText(run) };
}

export function useDownloadRunLogs() {
  return useMutation({
    mutationFn: fetchRunLogs,
    onSuccess: ({ fileName, text }) => {
      downloadFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), fileName);
      toastSuccess(DOWNLOADED_LOGS_MESSAGE);
    },
    // Spec 001 §8: the failure has its own message, whatever the server said.
    onError: () => toastError(DOWNLOAD_LOGS_FAILED_MESSAGE),
  });
}
