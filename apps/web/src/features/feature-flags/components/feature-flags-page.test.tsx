import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { FeatureFlagsPage } from './feature-flags-page';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';

const flags = [
  {
    name: 'incidents.disable',
    value: 'false',
    description: 'Turns the incident area off',
    source: null,
    created_by: PERSON_ID,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-06T10:00:00Z',
    creator: { id: PERSON_ID, name: 'Ada Lovelace', avatar: null },
  },
  {
    name: 'identity.registration.enabled',
    value: 'false',
    description: 'Public sign-up',
    source: null,
    created_by: null,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-05T10:00:00Z',
    creator: null,
  },
  {
    name: 'logs.disable',
    value: 'true',
    description: null,
    source: 'local',
    created_by: null,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-05T10:00:00Z',
    creator: null,
  },
];

interface Recorded {
  method: string;
  url: URL;
  body: unknown;
}

let roles = ['admin'];
let recorded: Recorded[] = [];
let listResponse: () => Response = () => HttpResponse.json(flags);
let writeFailure: string | null = null;

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', ({ request }) => {
    recorded.push({ method: 'GET', url: new URL(request.url), body: null });
    return listResponse();
  }),
  ...(['post', 'patch', 'delete'] as const).map((method) =>
    http[method]('*/api/db/properties', async ({ request }) => {
      const text = await request.text();
      recorded.push({ method: method.toUpperCase(), url: new URL(request.url), body: text === '' ? null : JSON.parse(text) });
      if (writeFailure) return HttpResponse.json({ code: '23505', message: writeFailure, details: null, hint: null }, { status: 409 });
      return new HttpResponse(null, { status: method === 'post' ? 201 : 204 });
    }),
  ),
);

afterEach(() => {
  roles = ['admin'];
  recorded = [];
  listResponse = () => HttpResponse.json(flags);
  writeFailure = null;
});

function renderPage(): QueryClient {
  return renderWithProviders(<FeatureFlagsPage />, { toaster: true }).queryClient;
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

// Typing through dialogs is slow in jsdom on a shared machine; the default 5 s is too tight.
describe('Feature flags page', () => {
  it('lists flags with their creator, asking for the creator through the people embed', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Feature flags' });
    expect(await within(table).findByText('incidents.disable')).toBeInTheDocument();
    for (const header of ['Name', 'Description', 'Value', 'Source', 'Created By', 'Created At', 'Updated At']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(requests('GET')[0]?.url.searchParams.get('select')).toBe('*,creator:people!properties_created_by_fkey(id,name,avatar)');
  });

  it('shows where each flag comes from: local for the properties file, UI for flags people made, even those stored without a source', async () => {
    listResponse = () => HttpResponse.json([...flags, { ...flags[0], name: 'health.disable', source: 'UI' }]);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Feature flags' });
    const sourceOf = async (name: string) => {
      const row = (await within(table).findByText(name)).closest('tr');
      if (row === null) throw new Error(`no row for ${name}`);
      const sourceIndex = within(table)
        .getAllByRole('columnheader')
        .findIndex((header) => header.textContent === 'Source');
      return within(row).getAllByRole('cell')[sourceIndex]?.textContent;
    };
    expect(await sourceOf('logs.disable')).toBe('local');
    expect(await sourceOf('incidents.disable')).toBe('UI');
    expect(await sourceOf('health.disable')).toBe('UI');
  });

  it("shows 'No data available' when there are no flags", async () => {
    listResponse = () => HttpResponse.json([]);
    renderPage();
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });

  it('shows an error with a retry when the list fails', async () => {
    listResponse = () => HttpResponse.json({ code: 'XX000', message: 'database is down', details: null, hint: null }, { status: 500 });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('database is down');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('hides the add button from users without write permission on feature flags', async () => {
    roles = ['viewer'];
    renderPage();
    await screen.findByText('incidents.disable');
    expect(screen.queryByRole('button', { name: 'Add Feature Flag' })).not.toBeInTheDocument();
  });

  it('adds a flag with the current user as creator and refreshes the list and the shell flags', async () => {
    const user = userEvent.setup({ delay: null });
    const queryClient = renderPage();
    await screen.findByText('incidents.disable');
    const shellFlags = queryClient.getQueryCache();
    queryClient.setQueryData(['feature-flags', 'disabled'], []);
    await user.click(await screen.findByRole('button', { name: 'Add Feature Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'topology.disable');
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'true');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Hide topology');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Feature flag added successfully')).toBeInTheDocument();
    expect(requests('POST')[0]?.body).toEqual({ name: 'topology.disable', value: 'true', description: 'Hide topology', source: 'UI', created_by: PERSON_ID });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Feature Flag' })).not.toBeInTheDocument());
    await waitFor(() => expect(requests('GET').length).toBeGreaterThan(1));
    expect(shellFlags.find({ queryKey: ['feature-flags', 'disabled'] })?.state.isInvalidated).toBe(true);
  });

  it("refuses to add without name and value: 'please provide all details'", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Feature Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'only.name');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('please provide all details')).length).toBeGreaterThan(0);
    expect(requests('POST')).toHaveLength(0);
  });

  it('says under the name that it is longer than the 255 characters the server accepts, without the missing-details toast', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Feature Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    // Toasts outlive a test, so one left by an earlier test is counted rather than assumed absent.
    const earlierToasts = screen.queryAllByText('please provide all details').length;
    await user.click(within(dialog).getByRole('textbox', { name: /Name/ }));
    await user.paste(`${'n'.repeat(248)}.disable`);
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must be at most 255 characters')).toBeInTheDocument();
    expect(screen.queryAllByText('please provide all details')).toHaveLength(earlierToasts);
    expect(requests('POST')).toHaveLength(0);
  });

  it('shows the server message when adding fails', async () => {
    const user = userEvent.setup({ delay: null });
    writeFailure = 'duplicate key value violates unique constraint "properties_pkey"';
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Feature Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'incidents.disable');
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(writeFailure)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Feature Flag' })).toBeInTheDocument();
  });

  it('edits a flag by name, with the name read-only', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Feature Flag' });
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAttribute('readonly');
    const value = within(dialog).getByRole('textbox', { name: /Value/ });
    await user.clear(value);
    await user.type(value, 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Feature flag updated successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.searchParams.get('name')).toBe('eq.incidents.disable');
    expect(patch?.body).toEqual({ value: 'true', description: 'Turns the incident area off' });
  });

  it('deletes a flag after confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('incidents.disable'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Feature Flag' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Feature Flag' });
    expect(requests('DELETE')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Feature flag removed successfully')).toBeInTheDocument();
    expect(requests('DELETE')[0]?.url.searchParams.get('name')).toBe('eq.incidents.disable');
  });

  it("does not open local flags: 'Cannot edit local feature flags'", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('logs.disable'));
    expect(await screen.findByText('Cannot edit local feature flags')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Feature Flag' })).not.toBeInTheDocument();
  });

  it('tells an editor that a sign-in property is for administrators and opens no editor for it', async () => {
    const user = userEvent.setup({ delay: null });
    roles = ['editor'];
    renderPage();
    await user.click(await screen.findByText('identity.registration.enabled'));
    expect(await screen.findByText('Only administrators may change identity.registration.enabled')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Feature Flag' })).not.toBeInTheDocument();
    await user.click(screen.getByText('incidents.disable'));
    expect(await screen.findByRole('dialog', { name: 'Edit Feature Flag' })).toBeInTheDocument();
  });

  it('says under the name that an editor may not create an admin-only property, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    roles = ['editor'];
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add Feature Flag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Feature Flag' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Public.URL');
    await user.type(within(dialog).getByRole('textbox', { name: /Value/ }), 'https://attacker.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/^Only administrators may create properties starting with identity\. /)).toBeInTheDocument();
    expect(requests('POST')).toHaveLength(0);
  });

  it('lets an administrator open a sign-in property', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByText('identity.registration.enabled'));
    expect(await screen.findByRole('dialog', { name: 'Edit Feature Flag' })).toBeInTheDocument();
  });
});
