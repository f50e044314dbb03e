import { useMutation } from '@tanstack/react-query';
import { toastError, toastSuccess } from '@/components/toast/toast';
import { requestJson } from '@/lib/api/http';
import { recipientText } from '../readable';

export interface TestSend {
  recipient: string;
  status: 'sent' | 'failed' | 'skipped';
  detail: string | null;
}

/** POST /api/notifications/{id}/test: one test message per recipient, through the notification's own connections. */
export async function sendTestNotification(id: string): Promise<TestSend[]> {
  const answer = await requestJson<{ results: TestSend[] }>(`/api/notifications/${encodeURIComponent(id)}/test`, { method: 'POST', silent: true });
  return answer.results;
}

/** What the toast says of a test: every recipient in words, and why one failed or was skipped. */
export function testSummary(results: readonly TestSend[]): { ok: boolean; text: string } {
  if (results.length === 0) return { ok: false, text: 'This notification has no recipient to send a test to' };
  const parts = results.map((result) => `${recipientText(result.recipient)}: ${result.status}${result.detail === null ? '' : ` (${result.detail})`}`);
  return { ok: results.every((result) => result.status === 'sent'), text: `Test sent. ${parts.join('; ')}` };
}

export function useSendTestNotification() {
  return useMutation({
    mutationFn: sendTestNotification,
    onSuccess: (results) => {
      const summary = testSummary(results);
      if (summary.ok) toastSuccess(summary.text);
      else toastError(summary.text);
    },
    onError: toastError,
  });
}
