import '@/components/test-support/browser-polyfills';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  EVIDENCE_ID,
  INCIDENT_ID,
  ROOT_ID,
  evidenceFixture,
  failure,
  hypothesisFixture,
  incidentFixture,
  incidentServer,
  json,
  renderAt,
  requests,
  resetIncidentServer,
  state,
} from '../test/incident-test-server';
import type { IncidentDetail } from '../api/types';
import { IncidentDetailPage } from './incident-detail-page';

beforeAll(() => {
  // Two cores are shared by several test runs; the default second is too tight for a page this size.
  configure({ asyncUtilTimeout: 5000 });
  incidentServer.listen({ onUnhandledRequest: 'error' });
});
afterEach(resetIncidentServer);
afterAll(() => incidentServer.close());

function serve(incident: IncidentDetail | null) {
  state.tables.incidents = () => json(incident === null ? [] : [incident]);
}

function renderDetail(query = '') {
  return renderAt(`/incidents/${INCIDENT_ID}${query}`, '/incidents/:id', <IncidentDetailPage />);
}

async function choose(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Incident detail', { timeout: 30_000 }, () => {
  it("shows 'Incident not found' for an unknown incident", async () => {
    serve(null);
    renderDetail();
    expect(screen.getByTestId('incident-skeleton')).toBeInTheDocument();
    expect(await screen.findByText('Incident not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Incidents' })).toHaveAttribute('href', '/incidents');
  });

  it('loads the incident with its hypotheses, evidence and comments in one request', async () => {
    serve(incidentFixture());
    renderDetail();
    expect(await screen.findByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout is slow');
    const params = requests('GET', 'incidents')[0]?.url.searchParams;
    expect(params?.get('id')).toBe(`eq.${INCIDENT_ID}`);
    expect(params?.get('select')).toContain('hypotheses!hypotheses_incident_id_fkey(*,evidences!evidences_hypothesis_id_fkey(');
    expect(screen.getByRole('tab', { name: 'Comments' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Action Plan' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('sends a title edit 500 ms after the last keystroke', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    renderDetail();
    const title = await screen.findByRole('textbox', { name: 'Incident title' });
    const typedAt = Date.now();
    await user.type(title, '!');
    await waitFor(() => expect(requests('PATCH', 'incidents')).toHaveLength(1));
    expect((requests('PATCH', 'incidents')[0]?.at ?? 0) - typedAt).toBeGreaterThanOrEqual(500);
    expect(requests('PATCH', 'incidents')[0]?.body).toEqual({ title: 'Checkout is slow!' });
    expect(requests('PATCH', 'incidents')[0]?.url.searchParams.get('id')).toBe(`eq.${INCIDENT_ID}`);
  });

  it('asks for a hypothesis, then for text, before sending a comment', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Send comment' }));
    expect(await screen.findByText('Please select any hypothesis')).toBeInTheDocument();
    await choose(user, screen.getByRole('combobox', { name: 'Hypothesis' }), 'Checkout is slow');
    await user.click(screen.getByRole('button', { name: 'Send comment' }));
    expect(await screen.findByText('Please add comment details')).toBeInTheDocument();
    expect(requests('POST', 'comments')).toHaveLength(0);
  });

  it('shows a comment at once and takes it back when the server refuses it', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    state.writes['POST comments'] = () => failure('comments are closed', 403);
    renderDetail();
    await choose(user, await screen.findByRole('combobox', { name: 'Hypothesis' }), 'Checkout is slow');
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Rolling back the deploy{Enter}');
    expect(await screen.findByText('comments are closed')).toBeInTheDocument();
    const body = requests('POST', 'comments')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ incident_id: INCIDENT_ID, hypothesis_id: ROOT_ID, comment: 'Rolling back the deploy' });
    expect(typeof body.id).toBe('string');
    await waitFor(() => expect(screen.queryByText('Rolling back the deploy')).not.toBeInTheDocument());
  });

  it('offers to extend the definition of done before mitigating, and insists on a choice for Add', async () => {
    const user = userEvent.setup();
    serve(incidentFixture({ hypotheses: [hypothesisFixture({ evidences: [evidenceFixture()] })] }));
    renderDetail();
    await choose(user, await screen.findByRole('combobox', { name: 'Status' }), 'Mitigated');
    const dialog = await screen.findByRole('dialog', { name: 'Add contributing factors to definition of done' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Please select atleast one evidence')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: /checkout-latency/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(requests('PATCH', 'incidents')).toHaveLength(1));
    expect(requests('PATCH', 'evidences')[0]?.body).toEqual({ definition_of_done: true });
    expect(requests('PATCH', 'evidences')[0]?.url.searchParams.get('id')).toBe(`in.(${EVIDENCE_ID})`);
    expect(requests('PATCH', 'incidents')[0]?.body).toEqual({ status: 'mitigated' });
    expect(await screen.findByText('Incident status updated successfully')).toBeInTheDocument();
  });

  it('changes only the status on Skip and nothing on Cancel', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    renderDetail();
    await choose(user, await screen.findByRole('combobox', { name: 'Status' }), 'Resolved');
    let dialog = await screen.findByRole('dialog', { name: 'Add contributing factors to definition of done' });
    expect(dialog).toHaveTextContent('There are no evidences provided for this incident');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests('PATCH', 'incidents')).toHaveLength(0);
    await choose(user, screen.getByRole('combobox', { name: 'Status' }), 'Resolved');
    dialog = await screen.findByRole('dialog', { name: 'Add contributing factors to definition of done' });
    await user.click(within(dialog).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(requests('PATCH', 'incidents')[0]?.body).toEqual({ status: 'resolved' }));
    expect(requests('PATCH', 'evidences')).toHaveLength(0);
  });

  it("reports 'Incident status updated failed' when the server refuses a status", async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    state.writes['PATCH incidents'] = () => failure('Incident status cannot change from open to new');
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Incident status updated failed')).toBeInTheDocument();
    expect(requests('PATCH', 'incidents')[0]?.body).toEqual({ status: 'closed' });
  });

  it('offers only the allowed target statuses', async () => {
    const user = userEvent.setup();
    serve(incidentFixture({ status: 'resolved' }));
    renderDetail();
    await user.click(await screen.findByRole('combobox', { name: 'Status' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Resolved', 'Closed', 'Open']);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Reopen' })).toBeInTheDocument();
  });

  it('gives a viewer the incident without any control that changes it', async () => {
    state.roles = ['viewer'];
    serve(incidentFixture({ hypotheses: [hypothesisFixture({ evidences: [evidenceFixture()] })] }));
    renderDetail();
    expect(await screen.findByRole('heading', { name: 'Checkout is slow' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete evidence' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
  });

  it('shows the components the evidence points at above the tabs', async () => {
    serve(
      incidentFixture({
        hypotheses: [
          hypothesisFixture({
            evidences: [
              evidenceFixture({ type: 'topology', check: null, check_id: null, component_id: 'c1', component: { id: 'c1', name: 'payments-api', icon: null, status: 'unhealthy', topology_id: 't1' } }),
            ],
          }),
        ],
      }),
    );
    renderDetail();
    const chips = await screen.findByRole('list', { name: 'Components' });
    expect(within(chips).getByRole('link', { name: /payments-api/ })).toHaveAttribute('href', '/topology/c1');
  });
});
