import '@/components/test-support/browser-polyfills';
import { formatDate } from '@opsdeck/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import type { ScraperJob, ScraperRow } from '../api/types';
import { ScraperDetailPage } from './scraper-detail-page';
import { ScrapersPage } from './scrapers-page';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const SCRAPER_ID = '33333333-3333-4333-8333-333333333333';
const NEW_ID = '44444444-4444-4444-8444-444444444444';
const SPEC = { schedule: '@every 5m', file: [{ type: 'App::Config', id: '$.name', format: 'yaml', icon: 'file', paths: ['/srv/scrape/*.yaml'] }] };
const SUMMARY = {
  scrape_summary: {
    types: { 'App::Config': { added: 2, updated: 1, unchanged: 4, deleted: 0 } },
    changes: 3,
    insights: { opened: 1, resolved: 0 },
    errors: [{ where: 'file[0] /srv/scrape/bad.yaml', message: 'Nested mappings are not allowed in compact mappings' }],
  },
};

const listRow: ScraperRow = {
  id: SCRAPER_ID,
  name: 'app-configs',
  spec: SPEC,
  labels: { team: 'platform', env: 'prod', tier: 'back' },
  schedule: '@every 5m',
  source: 'UI',
  agent_id: null,
  agent: null,
  created_by: PERSON_ID,
  created_at: '2024-01-05T10:00:00Z',
  updated_at: '2024-01-06T10:00:00Z',
  last_runtime: '2024-01-06T10:00:00Z',
  job_last_failed: null,
  job_status: 'WARNING',
  job_details: SUMMARY,
};

const job: ScraperJob = {
  id: '55555555-5555-4555-8555-555555555555',
  name: 'scraper:app-configs',
  status: 'WARNING',
  time_start: '2024-01-06T10:00:00Z',
  duration_millis: 1200,
  success_count: 7,
  error_count: 1,
  created_at: '2024-01-06T10:00:00Z',
  details: SUMMARY,
};

let roles: string[] = ['admin'];
let listRows: ScraperRow[] = [listRow];
const STORED = { id: SCRAPER_ID, name: 'app-configs', description: null, spec: SPEC, source: 'UI', updated_at: '2024-01-06T10:00:00Z' };
let scraper: Record<string, unknown> | null = STORED;
let jobs: ScraperJob[] = [job];
let saveResponse: () => Response = () => HttpResponse.json({ id: NEW_ID }, { status: 201 });
let recorded: RecordedRequest[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/config_scrapers_with_status', async ({ request }) => {
    await record(request);
    return HttpResponse.json(listRows);
  }),
  http.get('*/api/db/config_scrapers', () => HttpResponse.json(scraper === null ? [] : [scraper])),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/job_history', () => HttpResponse.json(jobs)),
  http.post('*/api/db/config_scrapers', async ({ request }) => {
    await record(request);
    return saveResponse();
  }),
  http.patch('*/api/db/config_scrapers', async ({ request }) => {
    await record(request);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/config/scrapers/:id/run', async ({ request }) => {
    await record(request);
    return HttpResponse.json({ id: SCRAPER_ID, status: 'queued' }, { status: 202 });
  }),
);

afterEach(() => {
  cleanup();
  roles = ['admin'];
  listRows = [listRow];
  scraper = STORED;
  jobs = [job];
  saveResponse = () => HttpResponse.json({ id: NEW_ID }, { status: 201 });
  recorded = [];
});

const ROUTES = [
  { path: '/catalog/scrapers', element: <ScrapersPage /> },
  { path: '/catalog/scrapers/:id', element: <ScraperDetailPage /> },
];

function renderAt(path: string) {
  return renderRoutes(ROUTES, path, { toaster: true }).router;
}

const requests = (method: string) => recorded.filter((request) => request.method === method);

describe('Scrapers list page', () => {
  it('lists undeleted scrapers newest first with their type icon, latest job status and the generic columns without Namespace', async () => {
    renderAt('/catalog/scrapers');
    const table = await screen.findByRole('table', { name: 'Scrapers' });
    expect(await within(table).findByText('app-configs')).toBeInTheDocument();
    expect(within(table).getByRole('img', { name: 'File' })).toBeInTheDocument();
    const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Source', 'Schedule', 'Job Status', 'Last Run', 'Last Failed', 'Tags', 'Created', 'Updated', 'Created By']);
    expect(within(table).getByText('WARNING')).toBeInTheDocument();
    expect(within(table).getByText('team: platform')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: '+2 more' })).toBeInTheDocument();
    expect(within(table).getByText(formatDate('2024-01-06T10:00:00Z'))).toBeInTheDocument();
    expect(requests('GET')[0]?.url.searchParams.get('select')).toContain('labels');
    const params = requests('GET')[0]?.url.searchParams;
    expect(params?.get('deleted_at')).toBe('is.null');
    expect(params?.get('order')).toBe('created_at.desc');
    expect(params?.get('limit')).toBe('100');
    expect(document.title).toBe('Catalog Scrapers | Opsdeck');
  });

  it("opens the latest run's summary per type, with its errors, from '(View details)'", async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/catalog/scrapers');
    const table = await screen.findByRole('table', { name: 'Scrapers' });
    await user.click(await within(table).findByRole('button', { name: '(View details)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Job details for app-configs' });
    const perType = within(dialog).getByRole('table', { name: 'Items per type' });
    expect(within(perType).getByRole('row', { name: 'App::Config 2 1 4 0' })).toBeInTheDocument();
    expect(within(dialog).getByText(/Nested mappings are not allowed/)).toBeInTheDocument();
  });

  it("says 'No scrapers yet' with a way to add one for a writer, and offers no adding to a viewer", async () => {
    listRows = [];
    renderAt('/catalog/scrapers');
    expect(await screen.findByText('No scrapers yet')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Add your first scraper' })).toBeInTheDocument();
    cleanup();

    roles = ['viewer'];
    renderAt('/catalog/scrapers');
    expect(await screen.findByText('No scrapers yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Scraper' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add your first scraper' })).not.toBeInTheDocument();
  });

  it('creates a scraper from the example file spec, sending the current user as creator, and opens it', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt('/catalog/scrapers');
    await user.click(await screen.findByRole('button', { name: 'Add Scraper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Scraper' });
    expect(await within(dialog).findByRole('textbox', { name: 'Spec' })).toHaveTextContent('format: yaml');
    expect(within(dialog).queryByRole('list', { name: 'Missing required fields' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'shop-configs');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/catalog/scrapers/${NEW_ID}`));
    expect(await screen.findByText('shop-configs created successfully')).toBeInTheDocument();
    const body = requests('POST')[0]?.body as { name: string; spec: { file: Array<Record<string, unknown>> }; created_by: string };
    expect(body.name).toBe('shop-configs');
    expect(body.created_by).toBe(PERSON_ID);
    expect(body.spec.file[0]).toMatchObject({ format: 'yaml', icon: 'file' });
  });

  it("shows the server's refusal beside the editor and keeps the dialog and the user's text", async () => {
    saveResponse = () =>
      HttpResponse.json(
        { code: 'OD_SCRAPER_KIND', message: 'This server runs file, http, sql, kubernetes and kubernetesFile scrapers', details: 'spec.aws', hint: null },
        { status: 400 },
      );
    const user = userEvent.setup({ delay: null });
    renderAt('/catalog/scrapers');
    await user.click(await screen.findByRole('button', { name: 'Add Scraper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Scraper' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'cloud');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('This server runs file, http, sql, kubernetes and kubernetesFile scrapers');
    expect(alert).toHaveTextContent('spec.aws');
    expect(within(dialog).getByRole('textbox', { name: 'Spec' })).toHaveTextContent('format: yaml');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('cloud');
  });
});

describe('Scraper detail page', () => {
  it('shows the spec with a fixed name and, after Run Now, toasts and lists the runs with what each did', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/catalog/scrapers/${SCRAPER_ID}`);
    expect(await screen.findByRole('heading', { name: 'app-configs' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(await screen.findByRole('textbox', { name: 'Spec' })).toHaveTextContent('/srv/scrape/*.yaml');

    await user.click(screen.getByRole('button', { name: 'Run Now' }));
    expect(await screen.findByText('app-configs run started')).toBeInTheDocument();
    expect(requests('POST').map((request) => request.url.pathname)).toEqual([`/api/config/scrapers/${SCRAPER_ID}/run`]);

    await user.click(screen.getByRole('tab', { name: 'Job History' }));
    const history = await screen.findByRole('table', { name: 'Job history' });
    expect(await within(history).findByText('2 added, 1 updated, 4 unchanged, 0 deleted, 1 error')).toBeInTheDocument();
    await user.click(within(history).getByRole('button', { name: /^Show details of the run/ }));
    expect(within(history).getByRole('table', { name: 'Items per type' })).toBeInTheDocument();
    expect(within(history).getByText('file[0] /srv/scrape/bad.yaml:', { exact: false })).toBeInTheDocument();
  });

  it('updates the spec through the data API', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`/catalog/scrapers/${SCRAPER_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByText('app-configs updated successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.searchParams.get('id')).toBe(`eq.${SCRAPER_ID}`);
    expect(patch?.body).toMatchObject({ name: 'app-configs', spec: SPEC, created_by: PERSON_ID });
  });

  it('soft-deletes after a confirmation, toasts and returns to the list', async () => {
    const user = userEvent.setup({ delay: null });
    const router = renderAt(`/catalog/scrapers/${SCRAPER_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Scraper' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/catalog/scrapers'));
    expect(await screen.findByText('app-configs deleted successfully')).toBeInTheDocument();
    const patch = requests('PATCH')[0];
    expect(patch?.url.searchParams.get('id')).toBe(`eq.${SCRAPER_ID}`);
    expect(Object.keys(patch?.body as object)).toEqual(['deleted_at']);
  });

  it('shows a scraper defined outside the UI read-only, naming where it is linked', async () => {
    scraper = { ...STORED, source: 'KubernetesCRD' };
    renderAt(`/catalog/scrapers/${SCRAPER_ID}`);
    expect(await screen.findByRole('note')).toHaveTextContent('This scraper is linked to KubernetesCRD');
    expect(await screen.findByRole('textbox', { name: 'Spec' })).toHaveAttribute('aria-readonly', 'true');
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('offers a viewer neither Run Now nor editing', async () => {
    roles = ['viewer'];
    renderAt(`/catalog/scrapers/${SCRAPER_ID}`);
    expect(await screen.findByRole('heading', { name: 'app-configs' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run Now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
  });

  it("says 'Scraper not found' for a deleted or unknown id", async () => {
    scraper = null;
    renderAt('/catalog/scrapers/66666666-6666-4666-8666-666666666666');
    expect(await screen.findByText('Scraper not found')).toBeInTheDocument();
  });
});
