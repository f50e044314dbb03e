import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  PARAMETER_BYTES_MESSAGE,
  PARAMETER_DNS1123_MESSAGE,
  PARAMETER_MILLICORES_MESSAGE,
  PARAMETER_REQUIRED_MESSAGE,
  type PlaybookParameter,
  type PlaybookSpec,
} from '@opsdeck/shared';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { RunPlaybookModal, type RunnablePlaybookRef } from './run-playbook-modal';

const PLAYBOOK_ID = '60000000-0000-4000-8000-000000000001';
const POD_ID = '40000000-0000-4000-8000-000000000001';
const OTHER_POD_ID = '40000000-0000-4000-8000-000000000002';
const RUN_ID = '70000000-0000-4000-8000-000000000001';

let params: PlaybookParameter[] = [];
let paramsRequests: RecordedRequest[] = [];
let runRequests: RecordedRequest[] = [];
let configSearches: RecordedRequest[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/db/config_items', async ({ request }) => {
    const recorded = await readRequest(request);
    const id = recorded.url.searchParams.get('id');
    if (id !== null) return HttpResponse.json(id === `eq.${POD_ID}` ? [{ id: POD_ID, name: 'payments-pod', type: 'Kubernetes::Pod' }] : []);
    configSearches.push(recorded);
    return HttpResponse.json([
      { id: POD_ID, name: 'payments-pod', type: 'Kubernetes::Pod' },
      { id: OTHER_POD_ID, name: 'orders-pod', type: 'Kubernetes::Pod' },
    ]);
  }),
  // The target picker asks the server for the targets the playbook's selectors offer it on.
  http.get('*/api/playbook/:id/targets', async ({ request }) => {
    configSearches.push(await readRequest(request));
    return HttpResponse.json([
      { id: POD_ID, name: 'payments-pod', detail: 'Kubernetes::Pod' },
      { id: OTHER_POD_ID, name: 'orders-pod', detail: 'Kubernetes::Pod' },
    ]);
  }),
  http.post('*/api/playbook/:id/params', async ({ request }) => {
    paramsRequests.push(await readRequest(request));
    return HttpResponse.json({ params });
  }),
  http.post('*/api/playbook/run', async ({ request }) => {
    runRequests.push(await readRequest(request));
    return HttpResponse.json({ run_id: RUN_ID }, { status: 201 });
  }),
  http.get('*/api/playbook/:id/preflight', () => HttpResponse.json({ needs: [{ action: 'restart', met: true, message: 'kubectl is installed' }] })),
);

afterEach(() => {
  params = [];
  paramsRequests = [];
  runRequests = [];
  configSearches = [];
});

function playbookWith(spec: Partial<PlaybookSpec>): RunnablePlaybookRef {
  return { id: PLAYBOOK_ID, name: 'restart-pod', title: 'Restart pod', spec: { actions: [{ name: 'restart', exec: { script: 'true' } }], ...spec } };
}

function renderModal(playbook: RunnablePlaybookRef, target?: { type: 'config'; id: string }) {
  return renderRoutes(
    [
      { path: '/', element: <RunPlaybookModal playbook={playbook} target={target} onClose={() => undefined} /> },
      { path: '/playbooks/runs/:id', element: <p>Run page</p> },
    ],
    '/',
    { toaster: true },
  );
}

const TARGETED = { configs: [{ types: ['Kubernetes::Pod'] }] };

describe('Run Playbook modal', () => {
  it("asks for a resource first, labelled 'Catalog Item', and keeps Run disabled until one is picked", async () => {
    params = [{ name: 'replicas', type: 'text', default: '3' }];
    const user = userEvent.setup({ delay: null });
    const { router } = renderModal(playbookWith({ ...TARGETED, parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    expect(within(dialog).getByText('Please select a resource to see the parameters.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Run' })).toBeDisabled();
    expect(paramsRequests).toHaveLength(0);

    const picker = within(dialog).getByRole('combobox', { name: /Catalog Item/ });
    await user.click(picker);
    await user.type(picker, 'pay');
    await waitFor(() => expect(configSearches.at(-1)?.url.searchParams.get('search')).toBe('pay'));
    // Only the items this playbook is offered on: the server judges them by its selectors, as a run is judged.
    expect(configSearches.at(-1)?.url.pathname).toBe(`/api/playbook/${PLAYBOOK_ID}/targets`);
    expect(configSearches.at(-1)?.url.searchParams.get('type')).toBe('config');
    await user.click(await within(dialog).findByRole('option', { name: /payments-pod/ }));
    await waitFor(() => expect(picker).toHaveValue('payments-pod'));
    expect(await within(dialog).findByRole('textbox', { name: 'replicas' })).toHaveValue('3');
    expect(paramsRequests[0]?.body).toEqual({ config_id: POD_ID });
    await user.click(within(dialog).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${RUN_ID}`));
    expect(runRequests[0]?.body).toEqual({ id: PLAYBOOK_ID, config_id: POD_ID, params: { replicas: '3' } });
  });

  it('picks a resource with the keyboard', async () => {
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith(TARGETED));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const picker = within(dialog).getByRole('combobox', { name: /Catalog Item/ });
    await user.click(picker);
    await within(dialog).findByRole('option', { name: /orders-pod/ });
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(picker).toHaveValue('orders-pod'));
    expect(await within(dialog).findByText('No parameters for this playbook.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Run' })).toBeEnabled();
  });

  it("says 'No parameters for this playbook.' and runs at once for a playbook that targets nothing and asks nothing", async () => {
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({}));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    expect(within(dialog).getByText('No parameters for this playbook.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(runRequests[0]?.body).toEqual({ id: PLAYBOOK_ID, params: {} }));
  });

  it('shows the target it was opened from preselected and fixed, and resolves the defaults for it', async () => {
    params = [{ name: 'pod', type: 'text', default: 'payments-pod' }];
    renderModal(playbookWith({ ...TARGETED, parameters: params }), { type: 'config', id: POD_ID });
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const picker = within(dialog).getByRole('combobox', { name: /Catalog Item/ });
    expect(picker).toBeDisabled();
    await waitFor(() => expect(picker).toHaveValue('payments-pod'));
    expect(await within(dialog).findByRole('textbox', { name: 'pod' })).toHaveValue('payments-pod');
    expect(paramsRequests[0]?.body).toEqual({ config_id: POD_ID });
  });

  it('shows the message of every type and bound under its field and enables Run only once all are valid', async () => {
    params = [
      { name: 'reason', label: 'Reason', type: 'text', required: true },
      { name: 'short', label: 'Short', type: 'text', properties: { minLength: 3, maxLength: 5 } },
      { name: 'ticket', label: 'Ticket', type: 'text', properties: { regex: '^OPS-[0-9]+$' } },
      { name: 'host', label: 'Host', type: 'text', properties: { format: 'dns1123' } },
      { name: 'replicas', label: 'Replicas', type: 'text', properties: { format: 'number', min: 1, max: 5 } },
      { name: 'memory', label: 'Memory', type: 'text', properties: { format: 'bytes' } },
      { name: 'cpu', label: 'CPU', type: 'text', properties: { format: 'millicores', max: 2000 } },
      { name: 'notes', label: 'Notes', type: 'text', properties: { multiline: true, maxLength: 4 } },
      { name: 'force', label: 'Force', type: 'checkbox', default: 'true' },
      { name: 'mode', label: 'Mode', type: 'list', default: 'soft', properties: { options: [{ label: 'Soft', value: 'soft' }, { label: 'Hard', value: 'hard' }] } },
      { name: 'owner', label: 'Owner', type: 'team' },
      { name: 'approver', label: 'Approver', type: 'people' },
      { name: 'service', label: 'Service', type: 'component' },
      { name: 'database', label: 'Database', type: 'config' },
      { name: 'probe', label: 'Probe', type: 'check' },
    ];
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({ parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const run = within(dialog).getByRole('button', { name: 'Run' });
    const reason = await within(dialog).findByRole('textbox', { name: /Reason/ });
    expect(reason).toHaveAttribute('aria-required', 'true');
    // Required and empty: Run waits, and the message shows once the field has been left.
    expect(run).toBeDisabled();
    await user.click(reason);
    await user.tab();
    expect(await within(dialog).findByText(PARAMETER_REQUIRED_MESSAGE)).toBeInTheDocument();

    const typeAndLeave = async (name: RegExp, text: string) => {
      const field = within(dialog).getByRole(name.source === 'Replicas' ? 'spinbutton' : 'textbox', { name });
      await user.clear(field);
      await user.type(field, text);
      fireEvent.blur(field);
    };
    await typeAndLeave(/Short/, 'ab');
    expect(await within(dialog).findByText('Must be at least 3 characters')).toBeInTheDocument();
    await typeAndLeave(/Short/, 'abcdef');
    expect(await within(dialog).findByText('Must be at most 5 characters')).toBeInTheDocument();
    await typeAndLeave(/Ticket/, 'JIRA-1');
    expect(await within(dialog).findByText('Must match the pattern ^OPS-[0-9]+$')).toBeInTheDocument();
    await typeAndLeave(/Host/, 'Payments_DB');
    expect(await within(dialog).findByText(PARAMETER_DNS1123_MESSAGE)).toBeInTheDocument();
    await typeAndLeave(/Replicas/, '9');
    expect(await within(dialog).findByText('Must be at most 5')).toBeInTheDocument();
    await typeAndLeave(/Memory/, 'lots');
    expect(await within(dialog).findByText(PARAMETER_BYTES_MESSAGE)).toBeInTheDocument();
    await typeAndLeave(/CPU/, 'fast');
    expect(await within(dialog).findByText(PARAMETER_MILLICORES_MESSAGE)).toBeInTheDocument();
    await typeAndLeave(/CPU/, '3000m');
    expect(await within(dialog).findByText('Must be at most 2000m')).toBeInTheDocument();
    await typeAndLeave(/Notes/, 'a long note');
    expect(await within(dialog).findByText('Must be at most 4 characters')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Notes/ }).tagName).toBe('TEXTAREA');
    expect(run).toBeDisabled();

    // Checkbox, list and resource pickers carry their own controls and defaults.
    expect(within(dialog).getByRole('checkbox', { name: 'Force' })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Mode' })).toHaveTextContent('Soft');
    for (const name of ['Owner', 'Approver', 'Service', 'Database', 'Probe']) expect(within(dialog).getByRole('combobox', { name })).toBeInTheDocument();

    await typeAndLeave(/Reason/, 'stuck');
    await typeAndLeave(/Short/, 'abcd');
    await typeAndLeave(/Ticket/, 'OPS-12');
    await typeAndLeave(/Host/, 'payments.db');
    await typeAndLeave(/Replicas/, '4');
    await typeAndLeave(/Memory/, '512Mi');
    await typeAndLeave(/CPU/, '500m');
    await typeAndLeave(/Notes/, 'ok');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Force' }));
    await waitFor(() => expect(run).toBeEnabled());
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(run);
    await waitFor(() => expect(runRequests).toHaveLength(1));
    expect(runRequests[0]?.body).toEqual({
      id: PLAYBOOK_ID,
      params: { reason: 'stuck', short: 'abcd', ticket: 'OPS-12', host: 'payments.db', replicas: '4', memory: '512Mi', cpu: '500m', notes: 'ok', force: 'false', mode: 'soft' },
    });
  });

  it("offers Mission Control's bytes, millicores, duration and secret parameters as typed fields, a duration with options as a choice", async () => {
    params = [
      { name: 'limit', label: 'Memory limit', type: 'bytes' },
      { name: 'cores', label: 'Cores', type: 'millicores' },
      { name: 'retention', label: 'Retention', type: 'duration', properties: { min: 300_000 } },
      { name: 'window', label: 'Window', type: 'duration', default: '1h', properties: { options: [{ label: '5m', value: '5m' }, { label: '1h', value: '1h' }] } },
      { name: 'token', label: 'Token', type: 'secret' },
    ];
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({ parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const limit = await within(dialog).findByRole('textbox', { name: /Memory limit/ });
    expect(limit).toHaveAttribute('placeholder', '512Mi');
    expect(within(dialog).getByRole('textbox', { name: /Cores/ })).toHaveAttribute('placeholder', '500m');
    await user.type(limit, 'lots');
    fireEvent.blur(limit);
    expect(await within(dialog).findByText(PARAMETER_BYTES_MESSAGE)).toBeInTheDocument();
    const retention = within(dialog).getByRole('textbox', { name: /Retention/ });
    await user.type(retention, '1m');
    fireEvent.blur(retention);
    expect(await within(dialog).findByText('Must be at least 5m')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Window' })).toHaveTextContent('1h');
    expect(within(dialog).getByLabelText(/Token/)).toHaveAttribute('type', 'password');
  });

  it('checks a code parameter in its language and says what is wrong once the editor is left', async () => {
    params = [{ name: 'payload', label: 'Payload', type: 'code', default: '{"replicas": ', properties: { language: 'json' } }];
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({ parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Payload' });
    expect(within(dialog).getByRole('button', { name: 'Run' })).toBeDisabled();
    await user.click(editor);
    await user.tab();
    expect(await within(dialog).findByText(/^Not valid JSON/)).toBeInTheDocument();
  });

  it('takes a code parameter in another language (kubectl arguments in shell) as plain text, checked for nothing', async () => {
    params = [{ name: 'command', label: 'Kubectl Command', type: 'code', required: true, default: 'get pods {', properties: { language: 'shell' } }];
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({ parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Kubectl Command' });
    await user.click(editor);
    await user.tab();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Run' })).toBeEnabled());
    expect(within(dialog).queryByText(/^Not valid/)).not.toBeInTheDocument();
  });

  it("reads 'Running...' while the run is requested", async () => {
    // Made before the request, so the test can let the answer go whether or not the request has reached the handler.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('*/api/playbook/run', async () => {
        await released;
        return HttpResponse.json({ run_id: RUN_ID }, { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { router } = renderModal(playbookWith({}));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    await user.click(within(dialog).getByRole('button', { name: 'Run' }));
    expect(await within(dialog).findByRole('button', { name: 'Running...' })).toBeDisabled();
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${RUN_ID}`));
    // The router's state moves before the new page renders.
    expect(await screen.findByText('Run page')).toBeInTheDocument();
  });

  it("toasts the server's message on failure and shows its parameter messages under the fields", async () => {
    params = [{ name: 'reason', label: 'Reason', type: 'text' }];
    server.use(
      http.post('*/api/playbook/run', () =>
        HttpResponse.json({ code: 'OD_PLAYBOOK_PARAMS', message: 'The parameters are not valid', details: JSON.stringify({ reason: 'Reason is refused by policy' }), hint: null }, { status: 400 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    const { router } = renderModal(playbookWith({ parameters: params }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    await user.type(await within(dialog).findByRole('textbox', { name: 'Reason' }), 'because');
    await user.click(within(dialog).getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('The parameters are not valid')).toBeInTheDocument();
    expect(await within(dialog).findByText('Reason is refused by policy')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Run' })).toBeEnabled();
    expect(router.state.location.pathname).toBe('/');
  });

  it('toasts a generic message when the server says nothing', async () => {
    server.use(http.post('*/api/playbook/run', () => new HttpResponse(null, { status: 502 })));
    const user = userEvent.setup({ delay: null });
    renderModal(playbookWith({}));
    const dialog = await screen.findByRole('dialog', { name: 'Run Playbook: Restart pod' });
    await user.click(within(dialog).getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Unable to run the playbook')).toBeInTheDocument();
  });

  it('says before the run, in one sentence per need, what this server lacks for the playbook', async () => {
    server.use(
      http.get('*/api/playbook/:id/preflight', () =>
        HttpResponse.json({
          needs: [
            { action: 'restart', met: false, message: 'kubectl is not installed on this host' },
            { action: 'query', met: true, message: 'The database of default/replica answers at db:5432' },
          ],
        }),
      ),
    );
    renderModal(playbookWith({}));
    const note = await screen.findByRole('note', { name: 'Before you run' });
    expect(note).toHaveTextContent('kubectl is not installed on this host (action restart)');
    expect(note).not.toHaveTextContent('answers at');
  });
});
