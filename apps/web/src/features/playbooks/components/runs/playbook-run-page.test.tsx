import '@/components/test-support/browser-polyfills';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { PlaybookRun, PlaybookRunAction } from '@opsdeck/shared';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { PlaybookRunPage } from './playbook-run-page';

const RUN_ID = '50000000-0000-4000-8000-000000000001';
const NEW_RUN_ID = '50000000-0000-4000-8000-000000000009';
const PLAYBOOK_ID = '10000000-0000-4000-8000-000000000001';
const CONFIG_ID = '20000000-0000-4000-8000-000000000001';
const PERSON_ID = '40000000-0000-4000-8000-000000000001';
const at = (offsetSeconds: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + offsetSeconds * 1000).toISOString();

function action(name: string, overrides: Partial<PlaybookRunAction> = {}): PlaybookRunAction {
  return {
    id: `60000000-0000-4000-8000-${name.padStart(12, '0').replace(/[^0-9a-f]/g, '0')}`,
    playbook_run_id: RUN_ID,
    name,
    status: 'completed',
    scheduled_time: at(2),
    start_time: at(2),
    end_time: at(5),
    error: null,
    result: { stdout: `${name} done\n`, exitCode: 0 },
    artifacts: [],
    ...overrides,
  };
}

function playbookRun(overrides: Partial<PlaybookRun> = {}): PlaybookRun {
  return {
    id: RUN_ID,
    playbook_id: PLAYBOOK_ID,
    playbooks: { id: PLAYBOOK_ID, name: 'restart-pod', title: 'Restart pod', icon: null },
    status: 'completed',
    parameters: { namespace: 'shop', replicas: '3' },
    config_id: CONFIG_ID,
    component_id: null,
    check_id: null,
    target: { type: 'config', id: CONFIG_ID, name: 'checkout-api', kind: 'Kubernetes::Deployment' },
    scheduled_time: at(0),
    start_time: at(2),
    end_time: at(72),
    created_at: at(0),
    created_by: PERSON_ID,
    created_by_name: 'Grace Hopper',
    error: null,
    approval: null,
    request: null,
    actions: [action('first', { result: { stdout: 'first done\n', exitCode: 0 } }), action('second', { result: { stdout: 'second done\n', stderr: 'a warning\n', exitCode: 0 } })],
    ...overrides,
  };
}

let current: () => PlaybookRun = () => playbookRun();
let runGets = 0;
let posts: RecordedRequest[] = [];
let saved: { name: string; text: Promise<string> }[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/playbook/run/action/:id', ({ params }) => {
    const found = current().actions.find((candidate) => candidate.id === params.id);
    return found ? HttpResponse.json(found) : HttpResponse.json({ code: 'OD_NOT_FOUND', message: 'not found' }, { status: 404 });
  }),
  http.get('*/api/playbook/run/:id', () => {
    runGets += 1;
    return HttpResponse.json(current());
  }),
  http.post('*/api/playbook/run', async ({ request }) => {
    posts.push(await readRequest(request));
    return HttpResponse.json({ run_id: NEW_RUN_ID }, { status: 201 });
  }),
  http.post('*/api/playbook/run/:id/cancel', async ({ request }) => {
    posts.push(await readRequest(request));
    return HttpResponse.json(playbookRun({ status: 'cancelled' }));
  }),
  http.post('*/api/playbook/run/approve/:playbookId/:runId', async ({ request }) => {
    posts.push(await readRequest(request));
    return HttpResponse.json(playbookRun({ status: 'pending' }));
  }),
);

beforeEach(() => {
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push({ name: '', text: blob.text() });
    return 'blob:logs';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const last = saved.at(-1);
    if (last) last.name = this.download;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  current = () => playbookRun();
  runGets = 0;
  posts = [];
  saved = [];
});

function renderPage(id = RUN_ID) {
  return renderRoutes(
    [
      { path: '/playbooks/runs/:id', element: <PlaybookRunPage /> },
      { path: '/playbooks/runs', element: <p>Runs list</p> },
    ],
    `/playbooks/runs/${id}`,
    { toaster: true },
  );
}

const actionsList = () => screen.findByRole('listbox', { name: 'Actions' });
const output = () => screen.getByRole('region', { name: 'Log output' });

describe('Playbook run page', () => {
  it('shows every header field of the run', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Restart pod' })).toBeInTheDocument();
    const field = (label: string) => {
      const term = screen.getByText(label, { selector: 'dt' });
      const value = term.nextElementSibling;
      if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
      return value;
    };
    expect(within(field('Playbook')).getByRole('link', { name: 'Restart pod' })).toHaveAttribute('href', `/playbooks/${PLAYBOOK_ID}`);
    expect(field('Status')).toHaveTextContent('Completed');
    expect(within(field('Started')).getByRole('time')).toHaveAttribute('datetime', at(2));
    expect(within(field('Scheduled')).getByRole('time')).toHaveAttribute('datetime', at(0));
    expect(field('Duration')).toHaveTextContent('1m 10s');
    expect(field('Queued')).toHaveTextContent('2s');
    expect(within(field('Resource')).getByRole('link', { name: 'checkout-api' })).toHaveAttribute('href', `/catalog/${CONFIG_ID}`);
    expect(field('Triggered By')).toHaveTextContent('Grace Hopper');

    await user.click(within(field('Playbook')).getByRole('button', { name: /Params \(2\)/ }));
    const params = await screen.findByRole('dialog', { name: 'Parameters' });
    expect(within(params).getByText('namespace').nextElementSibling).toHaveTextContent('shop');
    expect(within(params).getByText('replicas').nextElementSibling).toHaveTextContent('3');
  });

  it('names the webhook request that started a run no person asked for', async () => {
    current = () =>
      playbookRun({
        created_by: null,
        created_by_name: null,
        request: { method: 'POST', url: '/api/playbook/webhook/deploy-hook?name=world', params: { name: 'world' }, headers: {}, content: '{}' },
      });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Restart pod' })).toBeInTheDocument();
    const triggered = screen.getByText('Triggered By', { selector: 'dt' }).nextElementSibling;
    expect(triggered).toHaveTextContent('Webhook POST /api/playbook/webhook/deploy-hook?name=world');
  });

  it('selects the last action by default and shows its output, and another one on click or with the arrow keys', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    const list = await actionsList();
    const [first, second] = within(list).getAllByRole('option');
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(first).toHaveAttribute('aria-selected', 'false');
    expect(within(output()).getByRole('region', { name: 'stdout' })).toHaveTextContent('second done');
    expect(within(output()).getByRole('region', { name: 'stderr' })).toHaveTextContent('a warning');
    expect(within(output()).getByText('Exit code 0')).toBeInTheDocument();

    if (first === undefined || second === undefined) throw new Error('options missing');
    await user.click(first);
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(within(output()).getByRole('region', { name: 'stdout' })).toHaveTextContent('first done');

    await user.keyboard('{ArrowDown}');
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(second).toHaveFocus();
  });

  it("puts a failed run's own error in a first 'Initialization' step", async () => {
    current = () => playbookRun({ status: 'failed', error: 'playbook spec has no actions the target can run', actions: [] });
    renderPage();
    const list = await actionsList();
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent('Initialization');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(within(output()).getByRole('region', { name: 'Error' })).toHaveTextContent('playbook spec has no actions the target can run');
  });

  it('does not let a skipped action be selected, and selects the last one that ran', async () => {
    const user = userEvent.setup({ delay: null });
    current = () =>
      playbookRun({
        status: 'failed',
        actions: [
          action('first', { status: 'failed', error: 'exit status 1', result: { stderr: 'boom\n', exitCode: 1 } }),
          action('cleanup', { status: 'skipped', start_time: null, end_time: null, result: null }),
        ],
      });
    renderPage();
    const list = await actionsList();
    const skipped = within(list).getByRole('option', { name: /cleanup/ });
    expect(skipped).toHaveAttribute('aria-disabled', 'true');
    const failed = within(list).getByRole('option', { name: /first/ });
    expect(failed).toHaveAttribute('aria-selected', 'true');
    await user.click(skipped);
    expect(skipped).toHaveAttribute('aria-selected', 'false');
    expect(within(output()).getByRole('region', { name: 'Error' })).toHaveTextContent('exit status 1');
    // A failed run whose failure is an action's has no Initialization step.
    expect(within(list).queryByText('Initialization')).not.toBeInTheDocument();
  });

  it("says when a sleeping action will run in a tooltip", async () => {
    const user = userEvent.setup({ delay: null });
    const wakes = new Date(Date.now() + 5 * 60_000 + 30_000).toISOString();
    current = () =>
      playbookRun({
        status: 'scheduled',
        end_time: null,
        actions: [action('first'), action('wait', { status: 'sleeping', scheduled_time: wakes, start_time: null, end_time: null, result: null })],
      });
    renderPage();
    const list = await actionsList();
    await user.hover(within(list).getByRole('option', { name: /wait/ }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Scheduled to run in 5m');
  });

  it("shows 'No result' for an action that left no output", async () => {
    current = () => playbookRun({ actions: [action('quiet', { result: {} })] });
    renderPage();
    await actionsList();
    expect(within(output()).getByText('No result')).toBeInTheDocument();
  });

  it("links each file an exec action kept for download and says which were not kept and why", async () => {
    const artifact = { id: '70000000-0000-4000-8000-000000000001', path: '/tmp/out/report.txt', filename: 'report.txt', size: 2048, checksum: 'ab', created_at: at(5) };
    current = () => playbookRun({ actions: [action('collect', { result: { exitCode: 0, artifactNotes: ['/tmp/none*: no file matches'] }, artifacts: [artifact] })] });
    renderPage();
    await actionsList();
    const kept = within(output()).getByRole('region', { name: 'Artifacts' });
    expect(within(kept).getByRole('link', { name: 'report.txt' })).toHaveAttribute('href', `/api/playbook/run/artifacts/${artifact.id}`);
    expect(kept).toHaveTextContent('2 KB');
    expect(within(kept).getByRole('list', { name: 'Files not kept' })).toHaveTextContent('/tmp/none*: no file matches');
  });

  it('shows the rows of an sql action as a table and the status and body of an http one', async () => {
    const user = userEvent.setup({ delay: null });
    current = () =>
      playbookRun({
        actions: [
          action('query', { result: { rows: [{ name: 'checkout', replicas: 3 }], rowCount: 1 } }),
          action('call', { result: { status: 200, body: '{"ok":true}' } }),
        ],
      });
    renderPage();
    const list = await actionsList();
    expect(within(output()).getByText('HTTP status 200')).toBeInTheDocument();
    expect(within(output()).getByRole('region', { name: 'Body' })).toHaveTextContent('{"ok":true}');
    await user.click(within(list).getByRole('option', { name: /query/ }));
    const rows = within(output()).getByRole('table', { name: 'Rows' });
    expect(within(rows).getByRole('columnheader', { name: 'replicas' })).toBeInTheDocument();
    expect(within(rows).getByRole('cell', { name: 'checkout' })).toBeInTheDocument();
  });

  it('asks again every 5 seconds while the run is active and stops once it is completed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    current = () => {
      calls += 1;
      return calls === 1
        ? playbookRun({ status: 'running', end_time: null, actions: [action('first', { status: 'running', end_time: null, result: null })] })
        : playbookRun();
    };
    renderPage();
    await screen.findByText('Running', { selector: 'dd span' });
    expect(runGets).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    await waitFor(() => expect(runGets).toBe(2));
    expect(await screen.findByText('Completed', { selector: 'dd span' })).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(runGets).toBe(2);
  });

  it('re-runs the playbook with the same target and parameters and opens the new run', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Re-run playbook' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/playbooks/runs/${NEW_RUN_ID}`));
    expect(posts[0]?.url.pathname).toBe('/api/playbook/run');
    expect(posts[0]?.body).toEqual({ id: PLAYBOOK_ID, config_id: CONFIG_ID, params: { namespace: 'shop', replicas: '3' } });
  });

  it("toasts the server's message when a re-run is refused", async () => {
    server.use(
      http.post('*/api/playbook/run', () =>
        HttpResponse.json({ code: 'OD_PLAYBOOK_TARGET', message: 'checkout-api no longer matches the playbook', details: null, hint: null }, { status: 400 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Re-run playbook' }));
    expect(await screen.findByText('checkout-api no longer matches the playbook')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/playbooks/runs/${RUN_ID}`);
  });

  it("downloads the whole run's logs, or the selected action's, and says so", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await actionsList();
    await user.click(screen.getByRole('button', { name: 'Download logs' }));
    await user.click(await screen.findByRole('menuitem', { name: 'All actions' }));
    expect(await screen.findByText('Downloaded logs')).toBeInTheDocument();
    expect(saved[0]?.name).toBe(`playbook-run-${RUN_ID}.log`);
    const text = await saved[0]?.text;
    expect(text).toContain('Playbook: Restart pod');
    expect(text).toContain('=== first [completed]');
    expect(text).toContain('--- stderr ---\na warning');

    await user.click(screen.getByRole('button', { name: 'Download logs' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Selected action (second)' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]?.name).toBe(`playbook-run-${RUN_ID}-second.log`);
    expect(await saved[1]?.text).toContain('second done');
  });

  it("says 'Failed to download logs' when the logs cannot be read", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage();
    await actionsList();
    server.use(http.get('*/api/playbook/run/:id', () => HttpResponse.json({ code: 'OD_INTERNAL', message: 'boom' }, { status: 500 })));
    await user.click(screen.getByRole('button', { name: 'Download logs' }));
    await user.click(await screen.findByRole('menuitem', { name: 'All actions' }));
    expect(await screen.findByText('Failed to download logs')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it('cancels an active run after confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    current = () => playbookRun({ status: 'running', end_time: null, actions: [action('first', { status: 'running', end_time: null, result: null })] });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel playbook run' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(posts.map((post) => post.url.pathname)).toEqual([`/api/playbook/run/${RUN_ID}/cancel`]));
    expect(await screen.findByText('Playbook run cancelled')).toBeInTheDocument();
  });

  it('offers Approve on a run waiting for approval to whoever reads it, and shows the server refusing one who may not', async () => {
    const user = userEvent.setup({ delay: null });
    current = () =>
      playbookRun({ status: 'waiting', start_time: null, end_time: null, actions: [], approval: { type: 'any', people: ['ada@example.com'], teams: ['sre'], approved_by: [] } });
    server.use(whoamiHandler(() => ['viewer']));
    renderPage();
    expect(await screen.findByText('Any of ada@example.com, team sre')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(posts[0]?.url.pathname).toBe(`/api/playbook/run/approve/${PLAYBOOK_ID}/${RUN_ID}`));

    server.use(
      http.post('*/api/playbook/run/approve/:playbookId/:runId', () =>
        HttpResponse.json({ code: 'OD_PLAYBOOK_NOT_APPROVER', message: 'You are not an approver of this playbook', details: null, hint: null }, { status: 403 }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('You are not an approver of this playbook')).toBeInTheDocument();
  });

  it('offers no run controls to a viewer', async () => {
    server.use(whoamiHandler(() => ['viewer']));
    current = () => playbookRun({ status: 'running', end_time: null });
    renderPage();
    await actionsList();
    expect(screen.queryByRole('button', { name: 'Re-run playbook' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download logs' })).toBeInTheDocument();
  });

  it("says 'Playbook run not found' for a run that does not exist", async () => {
    server.use(http.get('*/api/playbook/run/:id', () => HttpResponse.json({ code: 'OD_PLAYBOOK_RUN_NOT_FOUND', message: 'Playbook run not found' }, { status: 404 })));
    renderPage();
    expect(await screen.findByText('Playbook run not found')).toBeInTheDocument();
  });

  it('shows why a run could not be loaded', async () => {
    server.use(http.get('*/api/playbook/run/:id', () => HttpResponse.json({ code: 'OD_FORBIDDEN', message: 'You may not read playbook runs' }, { status: 403 })));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Playbook run could not be loaded: You may not read playbook runs');
  });
});
