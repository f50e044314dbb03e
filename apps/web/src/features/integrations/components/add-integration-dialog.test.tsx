import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Outlet } from 'react-router';
import { parseAllDocuments } from 'yaml';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { RolesAndFlagsLoaded, waitForRolesAndFlags } from '@/test/access-loaded';
import { renderRoutes } from '@/test/render';
import { LOG_BACKEND_EXAMPLE_SPEC, TOPOLOGY_EXAMPLE_SPEC } from '../integration-kinds';
import { integrationsRoutes } from '../routes';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';

let recorded: RecordedRequest[] = [];
let flags: { name: string; value: string }[] = [];
let listReads = 0;
let created: { id: string; name: string; integration_type: string }[] = [];

async function record(request: Request): Promise<void> {
  recorded.push(await readRequest(request));
}

function row(entry: { id: string; name: string; integration_type: string }) {
  return {
    ...entry,
    namespace: 'default',
    source: 'UI',
    agent_id: null,
    agent: null,
    job_status: null,
    job_details: null,
    job_name: null,
    job_time_start: null,
    last_runtime: null,
    created_by: PERSON_ID,
    created_at: '2024-01-05T10:00:00Z',
    updated_at: '2024-01-05T10:00:00Z',
  };
}

function creation(table: string, type: string) {
  return http.post(`*/api/db/${table}`, async ({ request }) => {
    await record(request);
    const body = recorded.at(-1)?.body as { name: string };
    created.push({ id: `${type}-${created.length}`, name: body.name, integration_type: type });
    return new HttpResponse(null, { status: 201 });
  });
}

setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/db/integrations_with_status', () => {
    listReads += 1;
    return HttpResponse.json(created.map(row), { headers: { 'Content-Range': created.length === 0 ? '*/0' : `0-${created.length - 1}/${created.length}` } });
  }),
  http.get('*/api/db/people', () => HttpResponse.json([{ id: PERSON_ID, name: 'Ada Lovelace', avatar: null }])),
  http.get('*/api/db/properties', () => HttpResponse.json(flags)),
  creation('topologies', 'topologies'),
  creation('config_scrapers', 'scrapers'),
  creation('logging_backends', 'logging_backends'),
);

afterEach(() => {
  recorded = [];
  flags = [];
  listReads = 0;
  created = [];
});

async function openModal() {
  const user = userEvent.setup({ delay: null });
  renderRoutes([{ element: <><RolesAndFlagsLoaded /><Outlet /></>, children: integrationsRoutes }], '/settings/integrations', { toaster: true });
  await user.click(await screen.findByRole('button', { name: 'Add Integration' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Integration' });
  await within(dialog).findByRole('region', { name: 'GitOps' });
  return { user, dialog };
}

describe('Add Integration modal', () => {
  it('offers the six charts under GitOps, each with its chart version, and the three direct kinds', async () => {
    const { dialog } = await openModal();
    const gitops = within(dialog).getByRole('region', { name: 'GitOps' });
    expect(within(gitops).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['AWS', 'Azure', 'Prometheus', 'Flux', 'Kubernetes', 'Opsdeck']);
    expect(within(gitops).getByText('opsdeck-kubernetes 0.1.0')).toBeInTheDocument();
    const direct = within(dialog).getByRole('region', { name: 'Direct' });
    await waitFor(() => expect(within(direct).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Custom Topology', 'Catalog Scraper', 'Log Backends']));
  });

  it('hides Log Backends when the logs feature is disabled', async () => {
    flags = [{ name: 'logs.disable', value: 'true' }];
    const { dialog } = await openModal();
    // Log Backends is left out until the flags are known, so two options alone say nothing before they are.
    await waitForRolesAndFlags();
    const direct = within(dialog).getByRole('region', { name: 'Direct' });
    expect(within(direct).getAllByRole('button')).toHaveLength(2);
    expect(within(direct).queryByRole('button', { name: 'Log Backends' })).not.toBeInTheDocument();
  });

  it('installs a chart: the values prefilled and checked as typed, the Flux manifest and the Helm command with the chosen release', async () => {
    const { user, dialog } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Kubernetes' }));
    expect(within(dialog).getByRole('note')).toHaveTextContent('The chart must be installed in Flux');
    const editor = await within(dialog).findByRole('textbox', { name: 'Values (opsdeck-kubernetes 0.1.0)' });
    expect(editor).toHaveTextContent('clusterName: my-cluster');
    expect(within(dialog).getByText('The values match the opsdeck-kubernetes 0.1.0 schema.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Namespace/ })).toHaveValue('mission-control');
    expect(within(dialog).getByRole('textbox', { name: /Interval/ })).toHaveValue('30m');

    await user.click(editor);
    await user.keyboard('replicaCount: 2{Enter}');
    const problems = await within(dialog).findByRole('list', { name: 'Values problems' });
    expect(problems).toHaveTextContent('Unknown property "replicaCount".');

    const release = within(dialog).getByRole('textbox', { name: /Release name/ });
    await user.clear(release);
    await user.type(release, 'k8s');
    await user.click(within(dialog).getByRole('tab', { name: 'Flux' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('One problem in the values or release settings');
    const manifest = within(dialog).getByLabelText('Flux manifest').textContent ?? '';
    const [repository, helmRelease] = parseAllDocuments(manifest).map((document) => document.toJS() as Record<string, unknown>);
    expect(repository).toMatchObject({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'HelmRepository' });
    expect(helmRelease).toMatchObject({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'k8s', namespace: 'mission-control' },
      spec: { interval: '30m', chart: { spec: { chart: 'opsdeck-kubernetes', version: '0.1.0' } }, values: { clusterName: 'my-cluster', replicaCount: 2 } },
    });
    expect(within(dialog).getByRole('button', { name: 'Copy Flux manifest' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Helm CLI' }));
    expect(within(dialog).getByLabelText('Helm command')).toHaveTextContent('helm upgrade --install k8s opsdeck/opsdeck-kubernetes');
    expect(within(dialog).getByLabelText('Helm command')).toHaveTextContent('--namespace mission-control --create-namespace');
  });

  it('says under a release name Kubernetes would refuse what is wrong with it', async () => {
    const { user, dialog } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Flux' }));
    const release = within(dialog).getByRole('textbox', { name: /Release name/ });
    await user.clear(release);
    await user.type(release, 'Flux_Release');
    expect(await within(dialog).findByText('Use lowercase letters, digits and -, starting and ending with a letter or digit')).toBeInTheDocument();
  });

  it.each([
    ['Custom Topology', 'Topology', 'topologies', TOPOLOGY_EXAMPLE_SPEC],
    ['Log Backends', 'Log Backend', 'logging_backends', LOG_BACKEND_EXAMPLE_SPEC],
  ] as const)("creates what '%s' offers through the data API, then closes and shows it in the list", async (option, singular, table, spec) => {
    const { user, dialog } = await openModal();
    await user.click(await within(dialog).findByRole('button', { name: option }));
    const form = await within(dialog).findByRole('form', { name: `${singular} spec` });
    await within(form).findByRole('textbox', { name: 'Spec' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'payments');
    const save = within(form).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    const readsBefore = listReads;
    await user.click(save);

    expect(await screen.findByText('payments created successfully')).toBeInTheDocument();
    const post = recorded.find((request) => request.method === 'POST');
    expect(post?.url.pathname).toBe(`/api/db/${table}`);
    expect(post?.body).toMatchObject({ name: 'payments', spec, created_by: PERSON_ID });
    // The modal closes once the list has been asked again; until then it hides the page behind it.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Integration' })).not.toBeInTheDocument());
    expect(listReads).toBeGreaterThan(readsBefore);
    expect(await within(await screen.findByRole('table', { name: 'Integrations' })).findByText('payments')).toBeInTheDocument();
  });

  it('creates a Catalog Scraper from the spec typed into its form', async () => {
    const { user, dialog } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Catalog Scraper' }));
    const form = await within(dialog).findByRole('form', { name: 'Catalog Scraper spec' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'app-configs');
    await user.click(await within(form).findByRole('textbox', { name: 'Spec' }));
    await user.paste('file:\n  - type: File\n    paths: ["/etc/app/*.yaml"]\n');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('app-configs created successfully')).toBeInTheDocument();
    const post = recorded.find((request) => request.method === 'POST');
    expect(post?.url.pathname).toBe('/api/db/config_scrapers');
    expect(post?.body).toMatchObject({ name: 'app-configs', spec: { file: [{ type: 'File', paths: ['/etc/app/*.yaml'] }] } });
    // The toast comes before the modal closes, and the open modal hides the page behind it.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Integration' })).not.toBeInTheDocument());
    expect(await within(await screen.findByRole('table', { name: 'Integrations' })).findByText('app-configs')).toBeInTheDocument();
  });

  it('goes back to the choices from a form', async () => {
    const { user, dialog } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'AWS' }));
    await user.click(within(dialog).getByRole('button', { name: 'All integrations' }));
    expect(within(dialog).getByRole('region', { name: 'Direct' })).toBeInTheDocument();
  });
});
