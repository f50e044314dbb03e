import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Outlet } from 'react-router';
import type { PlaybookSpec } from '@opsdeck/shared';
import { RolesLoaded, waitForRoles } from '@/test/access-loaded';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { PlaybookRow } from '../../api/get-playbooks';
import { PlaybookPage } from './playbook-page';
import { PlaybooksPage } from './playbooks-page';

const RESTART = '60000000-0000-4000-8000-000000000001';
const DIAGNOSE = '60000000-0000-4000-8000-000000000002';
const VACUUM = '60000000-0000-4000-8000-000000000003';
const FLUX = '60000000-0000-4000-8000-000000000004';

const SPEC: PlaybookSpec = {
  configs: [{ types: ['Kubernetes::Pod'] }],
  parameters: [{ name: 'reason', type: 'text', required: true }],
  actions: [{ name: 'restart', exec: { script: 'kubectl rollout restart' } }, { name: 'notify', http: { url: 'https://example.com' } }],
};

function playbook(id: string, name: string, overrides: Partial<PlaybookRow> = {}): PlaybookRow {
  return { id, name, title: null, icon: null, description: null, category: null, source: 'UI', spec: SPEC, created_at: '2026-11-01T00:00:00Z', ...overrides };
}

let roles: string[] = ['editor'];
let rows: PlaybookRow[] = [];
let writes: RecordedRequest[] = [];

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/playbooks', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id');
    return HttpResponse.json(id === null ? rows : rows.filter((row) => `eq.${row.id}` === id));
  }),
  http.get('*/api/schemas/playbook-spec.schema.json', () =>
    HttpResponse.json({ type: 'object', properties: { actions: { type: 'array' } }, required: ['actions'], additionalProperties: false }),
  ),
);

afterEach(() => {
  roles = ['editor'];
  rows = [];
  writes = [];
});

const routes = [
  { path: '/playbooks', element: <PlaybooksPage /> },
  { path: '/playbooks/:id', element: <PlaybookPage /> },
];

describe('Playbooks page', () => {
  it("groups cards by category in alphabetical order, with 'Other' for the uncategorised last", async () => {
    rows = [
      playbook(RESTART, 'restart-pod', { title: 'Restart pod', category: 'Kubernetes', description: 'Rolls the deployment' }),
      playbook(DIAGNOSE, 'diagnose'),
      playbook(VACUUM, 'vacuum', { title: 'Vacuum', category: 'Databases' }),
    ];
    renderRoutes(routes, '/playbooks');
    expect(await screen.findByRole('heading', { name: 'Playbooks', level: 1 })).toBeInTheDocument();
    await screen.findByRole('link', { name: /Restart pod/ });
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Databases', 'Kubernetes', 'Other']);
    const other = screen.getByRole('region', { name: 'Other' });
    // A playbook without a title is shown by name.
    expect(within(other).getByRole('link', { name: /diagnose/ })).toHaveAttribute('href', `/playbooks/${DIAGNOSE}`);
    const card = screen.getByRole('link', { name: /Restart pod/ });
    expect(card).toHaveTextContent('Rolls the deployment');
    expect(card).toHaveTextContent('2 actions · 1 parameter');
    expect(screen.getByRole('link', { name: 'Runs' })).toHaveAttribute('href', '/playbooks/runs');
    expect(screen.getByRole('button', { name: 'Create Playbook' })).toBeInTheDocument();
  });

  it("says 'No playbooks yet' with a create button when there are none", async () => {
    renderRoutes(routes, '/playbooks');
    expect(await screen.findByText('No playbooks yet')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Create Playbook' })).toBeInTheDocument();
  });

  it('offers no Create Playbook button to a viewer', async () => {
    roles = ['viewer'];
    rows = [playbook(DIAGNOSE, 'diagnose')];
    renderRoutes([{ element: <><RolesLoaded /><Outlet /></>, children: routes }], '/playbooks');
    await screen.findByRole('link', { name: /diagnose/ });
    await waitForRoles();
    expect(screen.queryByRole('button', { name: 'Create Playbook' })).not.toBeInTheDocument();
  });

  it("shows the server's message when the playbooks cannot be loaded", async () => {
    server.use(http.get('*/api/db/playbooks', () => HttpResponse.json({ code: 'OD403', message: 'You do not have permission', details: null, hint: null }, { status: 403 })));
    renderRoutes(routes, '/playbooks');
    expect(await screen.findByRole('alert')).toHaveTextContent('Playbooks could not be loaded: You do not have permission');
  });

  it('keeps the typed spec and shows the refused path when the server refuses it, and toasts the failure', async () => {
    server.use(
      http.post('*/api/db/playbooks', async ({ request }) => {
        writes.push(await readRequest(request));
        return HttpResponse.json(
          { code: 'OD_PLAYBOOK_SPEC', message: 'The playbook spec is not valid: actions[0].http.url is not a URL', details: 'actions[0].http.url', hint: 'Fix the field named in details and save again' },
          { status: 400 },
        );
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { container } = renderRoutes(routes, '/playbooks', { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Create Playbook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Playbook' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Spec' });
    // The served schema knows only `actions`: the template's other keys are underlined in the editor.
    await waitFor(() => expect(container.ownerDocument.querySelector('.cm-lintRange-error')).not.toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(writes).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'restart-pod');
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Restart pod');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.body).toMatchObject({ name: 'restart-pod', title: 'Restart pod', category: null, source: 'UI', created_by: '11111111-1111-4111-8111-111111111111' });
    expect((writes[0]?.body as { spec: PlaybookSpec }).spec.actions[0]?.name).toBe('request-restart');
    const alert = await within(dialog).findByText(/^Unable to update playbook spec: The playbook spec is not valid/);
    expect(alert.parentElement).toHaveTextContent('actions[0].http.url');
    expect(alert.parentElement).toHaveTextContent('Fix the field named in details and save again');
    expect(await screen.findByText('Unable to update playbook spec: The playbook spec is not valid: actions[0].http.url is not a URL', { selector: '[data-title]' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Playbook' })).toBeInTheDocument();
    expect(editor).toHaveTextContent('{{ params.reason }}');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('restart-pod');
  });

  it('saves a pasted Mission Control resource without a Name, leaving the name to its metadata', async () => {
    server.use(
      http.post('*/api/db/playbooks', async ({ request }) => {
        writes.push(await readRequest(request));
        return HttpResponse.json([playbook(FLUX, 'flux-reconcile')], { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/playbooks', { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Create Playbook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Playbook' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Spec' });
    await user.click(editor);
    await user.keyboard('{Control>}a{/Control}');
    await user.paste('apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata:\n  name: flux-reconcile\nspec:\n  actions: []\n');
    await waitFor(() => expect(editor).toHaveTextContent('kind: Playbook'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.body).toMatchObject({ name: '', spec: { kind: 'Playbook', metadata: { name: 'flux-reconcile' } } });
  });

  it('creates a playbook and closes the dialog', async () => {
    server.use(
      http.post('*/api/db/playbooks', async ({ request }) => {
        const recorded = await readRequest(request);
        writes.push(recorded);
        return HttpResponse.json([{ ...playbook(FLUX, 'flux-reconcile'), ...(recorded.body as object) }], { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/playbooks', { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Create Playbook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Playbook' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'flux-reconcile');
    await user.type(within(dialog).getByRole('textbox', { name: 'Category' }), 'Flux');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('flux-reconcile created successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Playbook' })).not.toBeInTheDocument());
    expect(writes[0]?.url.searchParams.get('select')).toBe('id,name,title,icon,description,category,source,spec,created_at');
    expect(writes[0]?.body).toMatchObject({ name: 'flux-reconcile', category: 'Flux' });
  });
});

describe('Playbook page', () => {
  it('shows the header, the summary and the spec, with Runs linking to the filtered run list', async () => {
    rows = [playbook(RESTART, 'restart-pod', { title: 'Restart pod', category: 'Kubernetes', description: 'Rolls the deployment' })];
    renderRoutes(routes, `/playbooks/${RESTART}`);
    expect(await screen.findByRole('heading', { name: 'Restart pod', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Rolls the deployment')).toBeInTheDocument();
    expect(screen.getByText('Kubernetes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Runs' })).toHaveAttribute('href', `/playbooks/runs?playbook=${RESTART}`);
    expect(screen.getByRole('region', { name: 'Runs on' })).toHaveTextContent('Catalog item: Kubernetes::Pod');
    expect(screen.getByRole('region', { name: 'Actions' })).toHaveTextContent('restart (exec)');
    expect(screen.getByRole('region', { name: 'Parameters' })).toHaveTextContent('reason (text, required)');
    expect(await screen.findByRole('textbox', { name: 'Spec' })).toHaveAttribute('aria-readonly', 'true');
    expect(screen.getByRole('button', { name: 'Run' })).toBeInTheDocument();
  });

  it('lists what starts the playbook by itself: its events and its webhook address with the schemes it checks', async () => {
    const spec = {
      ...SPEC,
      on: {
        canary: [{ event: 'failed', filter: "check.type == 'http'" }],
        webhook: { path: 'deploy-hook', authentication: { basic: { username: 'ci', password: { $encrypted: 'sealed' } }, github: { token: { $encrypted: 'sealed' } } } },
      },
    };
    rows = [playbook(RESTART, 'restart-pod', { title: 'Restart pod', spec })];
    renderRoutes(routes, `/playbooks/${RESTART}`);
    const started = await screen.findByRole('list', { name: 'Started by' });
    expect(started).toHaveTextContent("Started by Check failed where check.type == 'http'");
    expect(started).toHaveTextContent('Started by webhook (basic, github): POST /api/playbook/webhook/deploy-hook');
  });

  it("says 'Playbook not found' for an unknown or malformed id", async () => {
    renderRoutes(routes, `/playbooks/${FLUX}`);
    expect(await screen.findByText('Playbook not found')).toBeInTheDocument();
    renderRoutes(routes, '/playbooks/not-an-id');
    await waitFor(() => expect(screen.getAllByText('Playbook not found')).toHaveLength(2));
  });

  it('offers Edit to an editor, who writes playbooks but not connections (ADR 0083), and not to a viewer', async () => {
    rows = [playbook(RESTART, 'restart-pod', { title: 'Restart pod' })];
    const { unmount } = renderRoutes(routes, `/playbooks/${RESTART}`);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    unmount();
    roles = ['viewer'];
    renderRoutes(routes, `/playbooks/${RESTART}`);
    expect(await screen.findByText('Restart pod')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('edits with the name fixed and sends only the editable fields', async () => {
    rows = [playbook(RESTART, 'restart-pod', { title: 'Restart pod' })];
    server.use(
      http.patch('*/api/db/playbooks', async ({ request }) => {
        const recorded = await readRequest(request);
        writes.push(recorded);
        return HttpResponse.json([{ ...rows[0], ...(recorded.body as object) }]);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, `/playbooks/${RESTART}`, { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Restart pod' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('restart-pod');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Restart a pod');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Restart a pod updated successfully')).toBeInTheDocument();
    expect(writes[0]?.url.searchParams.get('id')).toBe(`eq.${RESTART}`);
    expect(writes[0]?.body).toEqual({ title: 'Restart a pod', category: null, icon: null, description: null, spec: SPEC });
  });

  it('deletes softly after a confirmation and returns to the playbooks', async () => {
    rows = [playbook(RESTART, 'restart-pod', { title: 'Restart pod' })];
    server.use(
      http.patch('*/api/db/playbooks', async ({ request }) => {
        writes.push(await readRequest(request));
        rows = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { router } = renderRoutes(routes, `/playbooks/${RESTART}`, { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete playbook' });
    expect(writes).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Restart pod deleted successfully')).toBeInTheDocument();
    expect(writes[0]?.url.searchParams.get('id')).toBe(`eq.${RESTART}`);
    expect(Object.keys(writes[0]?.body as object)).toEqual(['deleted_at']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/playbooks'));
  });

  it("toasts 'Unable to delete playbook spec' with the server's message and keeps the confirmation open", async () => {
    rows = [playbook(RESTART, 'restart-pod')];
    server.use(http.patch('*/api/db/playbooks', () => HttpResponse.json({ code: 'OD403', message: 'Not allowed', details: null, hint: null }, { status: 403 })));
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, `/playbooks/${RESTART}`, { toaster: true });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete playbook' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Unable to delete playbook spec: Not allowed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Delete playbook' })).toBeInTheDocument();
  });

  it('shows a playbook defined outside the UI read-only, with its source instead of Edit and Delete', async () => {
    rows = [playbook(RESTART, 'restart-pod', { source: 'KubernetesCRD' })];
    renderRoutes(routes, `/playbooks/${RESTART}`);
    expect(await screen.findByRole('note')).toHaveTextContent('Defined by KubernetesCRD');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
