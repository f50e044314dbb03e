import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { LOG_BACKEND_EXAMPLE_SPEC } from '../integration-kinds';
import { integrationsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const BACKEND_ID = '66666666-6666-4666-8666-666666666666';

const backend = {
  id: BACKEND_ID,
  name: 'app-files',
  namespace: 'default',
  labels: { team: 'web' },
  spec: { file: { paths: ['/var/lib/opsdeck/logs/app/*.log'] } },
  source: 'UI',
  agent_id: null,
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  deleted_at: null,
};

const listRow = { ...backend, agent: null, job_status: null, job_details: null, job_name: null, last_runtime: null, job_last_failed: null };

let recorded: RecordedRequest[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

const server = setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('*/api/db/logging_backends_with_status', async ({ request }) => {
    await record(request);
    return HttpResponse.json([listRow]);
  }),
  http.get('*/api/db/logging_backends', () => HttpResponse.json([backend])),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/job_history', () => HttpResponse.json([])),
  http.post('*/api/db/logging_backends', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 201 });
  }),
  http.patch('*/api/db/logging_backends', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
);

afterEach(() => {
  recorded = [];
});

function renderAt(path: string) {
  return renderRoutes(integrationsRoutes, path, { toaster: true });
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

describe('Log backend settings pages', () => {
  it('lists log backends from logging_backends_with_status, newest first, without Schedule and Namespace columns', async () => {
    renderAt('/settings/logging_backends');
    const table = await screen.findByRole('table', { name: 'Log Backends' });
    expect(await within(table).findByText('app-files')).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Source', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    const params = requests('GET')[0]?.url.searchParams;
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('order')).toBe('created_at.desc');
  });

  it('starts a new log backend from the file example, without a Namespace field, and holds Save back until it has a name', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/logging_backends');
    await user.click(await screen.findByRole('button', { name: 'Add Log Backend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Log Backend' });
    expect(await within(dialog).findByRole('textbox', { name: 'Spec' })).toHaveTextContent('app/*.log');
    expect(within(dialog).queryByRole('textbox', { name: 'Namespace' })).not.toBeInTheDocument();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'app-files');
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(requests('POST')).toHaveLength(1));
    expect(requests('POST')[0]?.body).toEqual({ name: 'app-files', namespace: 'default', labels: {}, spec: LOG_BACKEND_EXAMPLE_SPEC, created_by: PERSON_ID });
    expect(await screen.findByText('app-files created successfully')).toBeInTheDocument();
  });

  it('disables Save while the spec text is not a YAML object', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/settings/logging_backends');
    await user.click(await screen.findByRole('button', { name: 'Add Log Backend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Log Backend' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'app-files');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(await within(dialog).findByRole('textbox', { name: 'Spec' }));
    await user.keyboard('{Enter}- x');
    expect(await within(dialog).findByText('Not a JSON or YAML object: the last valid value is kept')).toBeInTheDocument();
    expect(save).toBeDisabled();
  });

  it('lists what the log backend schema refuses, such as two backends in one spec, and disables Update', async () => {
    server.use(http.get('*/api/db/logging_backends', () => HttpResponse.json([{ ...backend, spec: { ...backend.spec, loki: { url: 'http://loki:3100' } } }])));
    renderAt(`/settings/logging_backends/${BACKEND_ID}`);
    const form = await screen.findByRole('form', { name: 'Log Backend spec' });
    expect(within(form).getByRole('list', { name: 'Spec problems' })).toHaveTextContent('Give exactly one of file, loki, opensearch, elasticsearch, kubernetes');
    expect(within(form).getByRole('button', { name: 'Update' })).toBeDisabled();
  });

  it('updates without created_by, created_at or updated_at, then reads the list again', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderAt(`/settings/logging_backends/${BACKEND_ID}`);
    const form = await screen.findByRole('form', { name: 'Log Backend spec' });
    const update = within(form).getByRole('button', { name: 'Update' });
    await waitFor(() => expect(update).toBeEnabled());
    await user.click(update);
    expect(await screen.findByText('app-files updated successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.searchParams.get('id')).toBe(`eq.${BACKEND_ID}`);
    expect(patch?.body).toEqual({ name: 'app-files', namespace: 'default', labels: { team: 'web' }, spec: backend.spec });
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/logging_backends'));
    await waitFor(() => expect(requests('GET').length).toBeGreaterThan(0));
  });

  it("shows the server's refusal of a path outside the log roots in the form", async () => {
    server.use(
      http.patch('*/api/db/logging_backends', () =>
        HttpResponse.json(
          {
            code: 'OD_LOG_BACKEND_PATH',
            message: 'The log backend may not read spec.file.paths[0]: it lies outside the log roots',
            details: 'spec.file.paths[0]',
            hint: 'Write the path relative to a log root, or as an absolute path inside one of /srv/opsdeck/data/logs (OPSDECK_LOG_ROOTS)',
          },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderAt(`/settings/logging_backends/${BACKEND_ID}`);
    const form = await screen.findByRole('form', { name: 'Log Backend spec' });
    const update = within(form).getByRole('button', { name: 'Update' });
    await waitFor(() => expect(update).toBeEnabled());
    await user.click(update);
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('The log backend may not read spec.file.paths[0]: it lies outside the log roots');
    expect(alert).toHaveTextContent('Write the path relative to a log root');
  });
});
