import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { Notification, NotificationSendHistoryRow } from '../api/types';
import { NotificationEditorDialog, type NotificationEditorMode } from './notification-editor-dialog';
import { ADA, HOOK, notificationRow, PLATFORM } from './notification-test-data';

const ID = '22222222-2222-4222-8222-222222222222';

let stored: Notification = notificationRow(ID);
let writes: RecordedRequest[] = [];
let refusal: { code: string; message: string; details: string } | null = null;
/** What the server answers: the client adds each row's resource name. */
type ServedDelivery = Omit<NotificationSendHistoryRow, 'resource_name'>;
let history: ServedDelivery[] = [];
const LIVE_CHECK = '66666666-6666-4666-8666-666666666666';

function delivery(id: string, status: NotificationSendHistoryRow['status'], error: string | null, reason: string | null = null, resourceId = LIVE_CHECK): ServedDelivery {
  return {
    id,
    notification_id: ID,
    status,
    source_event: 'check.failed',
    resource_id: resourceId,
    person_id: ADA.id,
    recipient: 'ada@example.com',
    body: 'Check failed',
    error,
    reason,
    duration_millis: 120,
    attempts: status === 'failed' ? 3 : 1,
    created_at: new Date(Date.now() - 60_000).toISOString(),
    person: ADA,
  };
}

async function recordWrite(request: Request) {
  writes.push(await readRequest(request));
  if (refusal !== null) return HttpResponse.json({ ...refusal, hint: null }, { status: 400 });
  return new HttpResponse(null, { status: 201 });
}

setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/db/notifications', () => HttpResponse.json(stored)),
  http.post('*/api/db/notifications', ({ request }) => recordWrite(request)),
  http.patch('*/api/db/notifications', ({ request }) => recordWrite(request)),
  http.get('*/api/db/notification_send_history', () => HttpResponse.json(history)),
  http.get('*/api/db/checks', () => HttpResponse.json([{ id: LIVE_CHECK, name: 'api health' }])),
  http.post('*/api/notifications/:id/test', async ({ request }) => {
    writes.push(await readRequest(request));
    return HttpResponse.json({
      results: [
        { recipient: 'service:connection://default/ops-hook', status: 'sent', detail: null },
        { recipient: 'email:ada@example.com', status: 'failed', detail: 'connect ECONNREFUSED 127.0.0.1:25' },
      ],
    });
  }),
  http.get('*/api/db/people', () => HttpResponse.json([ADA])),
  http.get('*/api/db/teams', () => HttpResponse.json([PLATFORM])),
  http.get('*/api/db/connections', () => HttpResponse.json([HOOK])),
);

afterEach(() => {
  stored = notificationRow(ID);
  writes = [];
  refusal = null;
  history = [];
});

function renderEditor(mode: NotificationEditorMode, canWrite = true) {
  const onClose = vi.fn();
  renderWithProviders(<NotificationEditorDialog mode={mode} canWrite={canWrite} onClose={onClose} />, { toaster: true });
  return { onClose };
}

const lastBody = () => writes[writes.length - 1]?.body as Record<string, unknown> | undefined;

describe('Notification editor', () => {
  it('asks for at least one event before saving', async () => {
    const user = userEvent.setup();
    renderEditor({ kind: 'create' });
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(writes).toEqual([]);
  });

  it('clears the person when the recipient type switches to Team, and sends only the team', async () => {
    const user = userEvent.setup();
    renderEditor({ kind: 'create' });
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'check.failed' }));
    const person = within(dialog).getByRole('combobox', { name: 'Person' });
    await within(person).findByRole('option', { name: ADA.name });
    await user.selectOptions(person, ADA.id);

    await user.click(within(dialog).getByRole('radio', { name: 'Team' }));
    const team = within(dialog).getByRole('combobox', { name: 'Team' });
    await within(team).findByRole('option', { name: PLATFORM.name });
    await user.selectOptions(team, PLATFORM.id);
    await user.click(within(dialog).getByRole('radio', { name: 'Person' }));
    expect(within(dialog).getByRole('combobox', { name: 'Person' })).toHaveValue('');
    await user.click(within(dialog).getByRole('radio', { name: 'Team' }));
    expect(within(dialog).getByRole('combobox', { name: 'Team' })).toHaveValue('');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Team' }), PLATFORM.id);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(lastBody()).toMatchObject({ events: ['check.failed'], team_id: PLATFORM.id, person_id: null, custom_services: null });
  });

  it('sends to Others through an added notification connection and toasts the creation', async () => {
    const user = userEvent.setup();
    const { onClose } = renderEditor({ kind: 'create' });
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Checkout down');
    await user.click(within(dialog).getByRole('checkbox', { name: 'check.failed' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Others' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    const connection = within(dialog).getByRole('combobox', { name: 'Connection' });
    await within(connection).findByRole('option', { name: 'ops-hook (generic_webhook)' });
    await user.selectOptions(connection, 'connection://default/ops-hook');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'ops');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // Toasts outlive a test in sonner's store, so an earlier save's toast may still be up beside this one.
    expect(await screen.findAllByText('Notification created successfully')).not.toHaveLength(0);
    expect(writes[0]?.method).toBe('POST');
    expect(lastBody()).toEqual({
      title: 'Checkout down',
      events: ['check.failed'],
      filter: null,
      person_id: null,
      team_id: null,
      custom_services: [{ connection: 'connection://default/ops-hook', name: 'ops' }],
      template: null,
      properties: {},
    });
  });

  it('shows a refused filter under the field, toasts it and keeps what was typed', async () => {
    const user = userEvent.setup();
    refusal = { code: 'OD_NOTIFICATION_FILTER', message: 'filter: undeclared reference to "chek"', details: 'filter' };
    const { onClose } = renderEditor({ kind: 'create' });
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'check.failed' }));
    const filter = within(dialog).getByRole('textbox', { name: 'Filter' });
    await user.type(filter, 'chek.type == "http"');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(filter).toHaveAccessibleDescription(expect.stringContaining('undeclared reference to "chek"')));
    expect(filter).toHaveValue('chek.type == "http"');
    expect(within(dialog).getByRole('checkbox', { name: 'check.failed' })).toBeChecked();
    expect(onClose).not.toHaveBeenCalled();
    expect(await screen.findAllByText('filter: undeclared reference to "chek"')).not.toHaveLength(0);
  });

  it('refuses properties that are not a JSON object before sending', async () => {
    const user = userEvent.setup();
    renderEditor({ kind: 'create' });
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'check.failed' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Properties' }), '[[1]');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Properties must be a JSON object')).toBeInTheDocument();
    expect(writes).toEqual([]);
  });

  it('updates an existing notification by id and toasts the update', async () => {
    const user = userEvent.setup();
    const { onClose } = renderEditor({ kind: 'edit', id: ID });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    const title = await within(dialog).findByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('Checkout checks');
    await user.click(within(dialog).getByRole('checkbox', { name: 'check.passed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findAllByText('Notification updated successfully')).not.toHaveLength(0);
    expect(writes[0]?.method).toBe('PATCH');
    expect(writes[0]?.url.searchParams.get('id')).toBe(`eq.${ID}`);
    expect(lastBody()).toMatchObject({ events: ['check.failed'], person_id: ADA.id });
  });

  it('shows a notification from another source read-only with a note and no Save', async () => {
    stored = notificationRow(ID, { source: 'KubernetesCRD' });
    renderEditor({ kind: 'edit', id: ID });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    expect(await within(dialog).findByRole('note')).toHaveTextContent('KubernetesCRD');
    expect(within(dialog).getByRole('checkbox', { name: 'check.failed' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('says that the title and template of a notification applied from Mission Control YAML are Go templates', async () => {
    stored = notificationRow(ID, { source: 'apply', template_syntax: 'gotemplate', title: 'Check {{.check.name}} failed' });
    renderEditor({ kind: 'edit', id: ID });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    const note = await within(dialog).findByRole('note');
    expect(note).toHaveTextContent('comes from apply');
    expect(note).toHaveTextContent('Go templates');
    expect(within(dialog).getByText(/Markdown with Go template actions/)).toBeInTheDocument();
  });

  it('sends a test to every recipient from Send test and says how each went, with the hint that only changes of health fire', async () => {
    const user = userEvent.setup();
    renderEditor({ kind: 'edit', id: ID });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    expect(await within(dialog).findByText(/not again while it stays the same/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test sent. ops-hook: sent; ada@example.com: failed (connect ECONNREFUSED 127.0.0.1:25)')).toBeInTheDocument();
    expect(writes.at(-1)?.url.pathname).toBe(`/api/notifications/${ID}/test`);
  });

  it('lists the deliveries with their status, event, a link to the resource, recipient, attempts, duration, error and skip reason', async () => {
    const user = userEvent.setup();
    history = [
      delivery('d1', 'sent', null),
      delivery('d2', 'failed', 'connection refused'),
      delivery('d3', 'skipped', null, 'Flapping: a message went out 2 minutes ago'),
      delivery('d4', 'pending', null),
      delivery('d5', 'skipped', null, 'Repeat interval', '77777777-7777-4777-8777-777777777777'),
    ];
    renderEditor({ kind: 'edit', id: ID });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    await user.click(await within(dialog).findByRole('tab', { name: 'Delivery History' }));
    const table = await within(dialog).findByRole('table', { name: 'Delivery history' });
    const failed = await within(table).findByRole('row', { name: /Failed/ });
    for (const text of ['check.failed', 'Ada Lovelace', '3', '120ms', 'connection refused']) expect(failed).toHaveTextContent(text);
    for (const status of ['Sent', 'Skipped', 'Pending']) expect(within(table).getAllByText(status)[0]).toHaveAttribute('data-status', status.toLowerCase());
    expect(within(failed).getByRole('link', { name: 'api health' })).toHaveAttribute('href', '/health?checkId=66666666-6666-4666-8666-666666666666');
    // A check deleted since is named by its kind and the start of its id.
    expect(within(table).getByRole('link', { name: 'check 77777777' })).toHaveAttribute('href', '/health?checkId=77777777-7777-4777-8777-777777777777');
    expect(within(table).getByRole('row', { name: /Flapping/ })).toHaveTextContent('Flapping: a message went out 2 minutes ago');
  });
});
