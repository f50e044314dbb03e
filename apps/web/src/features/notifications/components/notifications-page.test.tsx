import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { NotificationSummaryRow } from '../api/types';
import { NotificationsPage } from './notifications-page';
import { ADA, notificationRow, PLATFORM } from './notification-test-data';

const CHECKOUT = '22222222-2222-4222-8222-222222222222';
const PAGING = '33333333-3333-4333-8333-333333333333';

let roles = ['admin'];
let rows: NotificationSummaryRow[] = [];
let listFails = false;
let listRequests: URL[] = [];
let demoInboxOn = false;

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/db/notifications_summary', ({ request }) => {
    listRequests.push(new URL(request.url));
    if (listFails) return HttpResponse.json({ code: 'OD500', message: 'Internal server error', details: null, hint: null }, { status: 500 });
    return HttpResponse.json(rows);
  }),
  http.get('*/api/db/notifications', () => HttpResponse.json(notificationRow(CHECKOUT))),
  http.get('*/api/db/notification_send_history', () => HttpResponse.json([])),
  http.get('*/api/db/people', () => HttpResponse.json([ADA])),
  http.get('*/api/db/teams', () => HttpResponse.json([PLATFORM])),
  http.get('*/api/db/connections', () => HttpResponse.json([])),
  http.get('*/api/demo-inbox', () => HttpResponse.json({ enabled: demoInboxOn, smtp: null, webhook: null, keep: 500, messages: [] })),
);

afterEach(() => {
  roles = ['admin'];
  rows = [];
  listFails = false;
  listRequests = [];
  demoInboxOn = false;
});

function renderPage() {
  return renderRoutes([{ path: '/settings/notifications', element: <NotificationsPage /> }], '/settings/notifications');
}

describe('Notifications page', () => {
  it('lists the summary rows newest first with their recipient, counts, average duration and most common error', async () => {
    rows = [
      notificationRow(CHECKOUT),
      notificationRow(PAGING, { title: 'Paging', person: null, person_id: null, team: PLATFORM, team_id: PLATFORM.id, pending: 0, failed: 0, sent: 3, avg_duration_ms: null, most_common_error: null }),
    ];
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const checkout = await within(table).findByRole('row', { name: /Checkout checks/ });
    for (const text of ['check.failed', 'check.passed', 'Ada Lovelace', '350ms', 'connection refused']) expect(checkout).toHaveTextContent(text);
    const cells = within(checkout).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(expect.arrayContaining(['1', '2', '7']));
    expect(within(table).getByRole('row', { name: /Paging/ })).toHaveTextContent('Platform');
    const select = listRequests[0]?.searchParams.get('select') ?? '';
    expect(select).toContain('person:people!notifications_person_id_fkey(');
    expect(select).toContain('team:teams!notifications_team_id_fkey(');
    expect(select).toContain('creator:people!notifications_created_by_fkey(');
    expect(listRequests[0]?.searchParams.get('order')).toBe('created_at.desc');
  });

  it('names a notification in words: by its name when its title is a template, by its events without a title, its services by connection name', async () => {
    rows = [
      notificationRow(CHECKOUT, { title: '{{ check.name }} is failing', name: 'checkout-failing' }),
      notificationRow(PAGING, { title: null, events: ['config.updated'], person: null, person_id: null, custom_services: [{ connection: 'connection://mc/slack', name: '' }] }),
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const named = await within(table).findByText('checkout-failing');
    expect(named).toHaveAttribute('title', 'Title template: {{ check.name }} is failing');
    expect(within(table).queryByText('{{ check.name }} is failing')).not.toBeInTheDocument();
    expect(within(table).getByText('Config updated')).toBeInTheDocument();
    expect(within(table).getByText('slack')).toBeInTheDocument();
    expect(within(table).queryByText(/connection:\/\//)).not.toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('links the breadcrumb to the job history', async () => {
    renderPage();
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings/jobs');
  });

  it('offers Add Notification to a role that may write notifications and opens Create Notification', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Notification' }));
    expect(await screen.findByRole('dialog', { name: 'Create Notification' })).toBeInTheDocument();
  });

  it('hides the add button from a role without write permission on notifications', async () => {
    roles = ['commander'];
    rows = [notificationRow(CHECKOUT)];
    renderPage();
    await screen.findByRole('row', { name: /Checkout checks/ });
    expect(screen.queryByRole('button', { name: 'Add Notification' })).not.toBeInTheDocument();
  });

  it('opens Edit Notification on a row click', async () => {
    const user = userEvent.setup();
    rows = [notificationRow(CHECKOUT)];
    renderPage();
    await user.click(await screen.findByRole('row', { name: /Checkout checks/ }));
    expect(await screen.findByRole('dialog', { name: 'Edit Notification' })).toBeInTheDocument();
  });

  it('says so when there are no notifications', async () => {
    renderPage();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });

  it('shows the error with a retry when the list cannot be read', async () => {
    listFails = true;
    renderPage();
    expect(await screen.findByText('Notifications could not be loaded: Internal server error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('links to the demo inbox only on a server that runs one', async () => {
    demoInboxOn = true;
    renderPage();
    expect(await screen.findByRole('link', { name: 'Demo inbox' })).toHaveAttribute('href', '/settings/notifications/inbox');
  });

  it('offers no demo inbox on a server without the demo data', async () => {
    renderPage();
    await screen.findByText('No notifications yet');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Demo inbox' })).toBeNull());
  });
});
