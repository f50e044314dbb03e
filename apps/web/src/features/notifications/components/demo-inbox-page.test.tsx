import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { DemoInbox, DemoInboxMessage } from '@opsdeck/shared';
import { DemoInboxPage, readableBody } from './demo-inbox-page';

const MAIL: DemoInboxMessage = {
  id: '2',
  kind: 'email',
  channel: 'platform@opsdeck.local',
  sender: 'opsdeck@opsdeck.local',
  recipients: ['platform@opsdeck.local'],
  subject: 'Check backup/nightly-job failed',
  content_type: 'text/plain',
  body: 'backup/nightly-job is failing',
  received_at: '2026-12-01T03:00:00.000Z',
};
const HOOK: DemoInboxMessage = {
  id: '1',
  kind: 'webhook',
  channel: 'ops-alerts',
  sender: 'Opsdeck',
  recipients: [],
  subject: null,
  content_type: 'application/json',
  body: '{"title":"backup/nightly-job needs attention","message":"the nightly backup failed again"}',
  received_at: '2026-12-01T02:59:00.000Z',
};

let roles = ['admin'];
let inbox: DemoInbox = { enabled: true, smtp: '127.0.0.1:40125', webhook: 'http://127.0.0.1:8080/api/demo-inbox/hooks/{channel}', keep: 500, messages: [MAIL, HOOK] };
let cleared = 0;

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/demo-inbox', () => HttpResponse.json(inbox)),
  http.delete('*/api/demo-inbox', () => {
    cleared += 1;
    const deleted = inbox.messages.length;
    inbox = { ...inbox, messages: [] };
    return HttpResponse.json({ deleted });
  }),
);

afterEach(() => {
  // Each test polls the inbox every few seconds; the next one starts from a page of its own.
  cleanup();
  roles = ['admin'];
  inbox = { enabled: true, smtp: '127.0.0.1:40125', webhook: 'http://127.0.0.1:8080/api/demo-inbox/hooks/{channel}', keep: 500, messages: [MAIL, HOOK] };
  cleared = 0;
});

function renderPage() {
  return renderRoutes([{ path: '/settings/notifications/inbox', element: <DemoInboxPage /> }], '/settings/notifications/inbox', { toaster: true });
}

describe('readableBody', () => {
  it("heads a webhook with its JSON title and shows the JSON laid out", () => {
    expect(readableBody(HOOK)).toEqual({ heading: 'backup/nightly-job needs attention', text: JSON.stringify(JSON.parse(HOOK.body), null, 2) });
  });

  it('keeps a body that is not JSON as sent, and heads a mail with its subject', () => {
    expect(readableBody({ kind: 'webhook', body: 'plain <b>words</b>', subject: null })).toEqual({ heading: null, text: 'plain <b>words</b>' });
    expect(readableBody(MAIL).heading).toBe('Check backup/nightly-job failed');
  });
});

describe('Demo inbox page', () => {
  it('lists what arrived, newest first, each mail and webhook named in words, with where the demo sends', async () => {
    renderPage();
    const list = await screen.findByRole('list', { name: 'Received messages' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual(['Check backup/nightly-job failed', 'backup/nightly-job needs attention']);
    expect(items[0]).toHaveTextContent('Mail to platform@opsdeck.local · from opsdeck@opsdeck.local');
    expect(items[1]).toHaveTextContent('Webhook ops-alerts');
    expect(screen.getByText('127.0.0.1:40125')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(/^Settings.*Notifications.*Demo inbox$/);
  });

  it('empties the inbox after a confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Empty inbox' }));
    const dialog = await screen.findByRole('dialog', { name: 'Empty the demo inbox?' });
    expect(cleared).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Empty inbox' }));
    expect(await screen.findByText(/Nothing has arrived yet/)).toBeInTheDocument();
    expect(cleared).toBe(1);
  });

  it('offers no Empty inbox to a viewer', async () => {
    roles = ['viewer'];
    renderPage();
    await screen.findByRole('list', { name: 'Received messages' });
    expect(screen.queryByRole('button', { name: 'Empty inbox' })).toBeNull();
  });

  it('says the inbox is off on a server without the demo data', async () => {
    inbox = { enabled: false, smtp: null, webhook: null, keep: 500, messages: [] };
    renderPage();
    expect(await screen.findByText(/The demo inbox is off on this server/)).toBeInTheDocument();
  });
});
