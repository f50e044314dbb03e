import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Json } from '@opsdeck/shared';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { setupMswServer } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { JobHistoryTab } from './job-history-tab';

function run(id: string, name: string, details: Json): JobHistoryEntry {
  const now = new Date().toISOString();
  return { id, name, status: 'SUCCESS', time_start: now, duration_millis: 800, success_count: 1, error_count: 0, created_at: now, details };
}

setupMswServer(
  http.get('*/api/db/job_history', () =>
    HttpResponse.json([run('r1', 'TopologyRun', null), run('r2', 'CanaryRun', { summary: { checks: 3 } })]),
  ),
);

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('JobHistoryTab', () => {
  it('opens the details modal only for a run that has errors, a scrape summary or a summary', async () => {
    const user = userEvent.setup();
    renderWithProviders(<JobHistoryTab resourceId="c1" />);
    await screen.findByText('TopologyRun');

    await user.click(row('TopologyRun'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(row('CanaryRun'));
    const dialog = await screen.findByRole('dialog', { name: 'CanaryRun' });
    expect(within(dialog).getByRole('region', { name: 'Summary' })).toBeInTheDocument();
  });
});
