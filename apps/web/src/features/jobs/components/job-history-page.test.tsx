import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Json } from '@opsdeck/shared';
import type { JobHistoryEntry } from '@/lib/job-history/job-history-entry';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { JobHistoryPage } from './job-history-page';

function run(id: string, name: string, details: Json): JobHistoryEntry {
  return {
    id,
    name,
    status: 'SUCCESS',
    time_start: new Date().toISOString(),
    duration_millis: 1_200,
    success_count: 1,
    error_count: 0,
    created_at: new Date().toISOString(),
    details,
    resource_type: 'retention',
    resource_id: null,
    resource_name: null,
    agent: null,
  };
}

const QUIET = run('r1', 'RetentionCleanup', { errors: [], summary: {} });
const FAILING = run('r2', 'Scraper', { errors: ['aws: AccessDenied'] });

let listRequests: URL[] = [];

setupMswServer(
  http.get('*/api/db/job_history_names', () => HttpResponse.json([{ name: 'RetentionCleanup' }, { name: 'Scraper' }])),
  http.get('*/api/db/job_histories', ({ request }) => {
    listRequests.push(new URL(request.url));
    return HttpResponse.json([QUIET, FAILING], { headers: { 'Content-Range': '0-1/2' } });
  }),
);

afterEach(() => {
  listRequests = [];
});

function renderPage(search = '') {
  return renderRoutes([{ path: '/settings/jobs', element: <JobHistoryPage /> }], `/settings/jobs${search}`);
}

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('Job History page', () => {
  it('opens the details modal from a run with errors but does nothing for a run without errors or summaries', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('RetentionCleanup');

    await user.click(row('RetentionCleanup'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(row('RetentionCleanup')).not.toHaveAttribute('tabindex');

    await user.click(row('Scraper'));
    const dialog = await screen.findByRole('dialog', { name: /Scraper/ });
    expect(within(dialog).getByRole('region', { name: 'Errors' })).toHaveTextContent('aws: AccessDenied');
  });

  it('offers exactly the relative ranges of spec 001 §9 and keeps the chosen one in the URL', async () => {
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Time range: Last 2 days' }));
    const relative = await screen.findByRole('region', { name: 'Relative time ranges' });
    expect(within(relative).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Last 5 minutes',
      'Last 15 minutes',
      'Last 30 minutes',
      'Last 1 hour',
      'Last 3 hours',
      'Last 6 hours',
      'Last 12 hours',
      'Last 24 hours',
      'Last 2 days',
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
      'Last 6 months',
      'Last 1 year',
      'Last 2 years',
      'Last 5 years',
    ]);

    await user.click(within(relative).getByRole('button', { name: 'Last 30 minutes' }));
    expect(router.state.location.search).toBe('?rangeType=relative&range=30m');
    expect(screen.getByRole('button', { name: 'Time range: Last 30 minutes' })).toBeInTheDocument();
    await waitFor(() => {
      const since = listRequests.at(-1)?.searchParams.get('created_at')?.replace(/^gte\./, '') ?? '';
      const minutes = (Date.now() - Date.parse(since)) / 60_000;
      expect(minutes).toBeGreaterThanOrEqual(30);
      expect(minutes).toBeLessThan(31);
    });
  });

  it('reads a link to a range that is not a time-range key and names it on the picker', async () => {
    renderPage('?rangeType=relative&range=6M');
    expect(await screen.findByRole('button', { name: 'Time range: Last 6 months' })).toBeInTheDocument();
  });
});
