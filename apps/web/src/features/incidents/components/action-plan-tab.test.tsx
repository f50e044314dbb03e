import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INCIDENT_ID, ROOT_ID, evidenceFixture, hypothesisFixture, incidentFixture, json, renderAt, requests, setupIncidentServer, state } from '../test/incident-test-server';
import { IncidentDetailPage } from './incident-detail-page';

const FACTOR_ID = '66666666-6666-4666-8666-666666666666';

setupIncidentServer();

function serveTree() {
  state.tables.incidents = () =>
    json([
      incidentFixture({
        hypotheses: [
          hypothesisFixture({ evidences: [evidenceFixture({ definition_of_done: true })] }),
          hypothesisFixture({ id: FACTOR_ID, parent_id: ROOT_ID, type: 'factor', title: '', status: null }),
        ],
        comments: [
          {
            id: 'c1',
            incident_id: INCIDENT_ID,
            hypothesis_id: FACTOR_ID,
            responder_id: null,
            comment: 'Saw it on @[Cora Commander](user:11111111-1111-4111-8111-111111111111) dashboard',
            created_by: null,
            external_created_by: null,
            created_at: '2024-03-01T10:10:00Z',
            author: { id: 'p1', name: 'Cora Commander', avatar: null },
            responder: null,
          },
        ],
      }),
    ]);
}

async function openActionPlan(query = '') {
  const user = userEvent.setup();
  renderAt(`/incidents/${INCIDENT_ID}?tab=action-plan${query}`, '/incidents/:id', <IncidentDetailPage />);
  await screen.findByRole('list', { name: 'Hypotheses' });
  return user;
}

describe('Action plan', () => {
  it("nests the factor under the root, marks definition-of-done holders and shows '(no title)'", async () => {
    serveTree();
    await openActionPlan();
    const root = screen.getByRole('article', { name: 'Root hypothesis: Checkout is slow' });
    expect(root).toHaveAttribute('data-definition-of-done', 'true');
    const factor = screen.getByRole('article', { name: 'Factor hypothesis: (no title)' });
    expect(factor).not.toHaveAttribute('data-definition-of-done');
    expect(within(factor).getByRole('combobox', { name: 'Status of (no title)' })).toHaveTextContent('Likely');
    expect(within(root).getByRole('button', { name: 'Add factor' })).toBeInTheDocument();
    expect(within(factor).getByRole('button', { name: 'Add solution' })).toBeInTheDocument();
  });

  it('saves a status change 200 ms after it is picked and a title edit a second after the last keystroke', async () => {
    serveTree();
    const user = await openActionPlan();
    const factor = screen.getByRole('article', { name: 'Factor hypothesis: (no title)' });
    await user.click(within(factor).getByRole('combobox', { name: 'Status of (no title)' }));
    const option = await screen.findByRole('option', { name: 'Proven' });
    // Taken before the pick, so the bound holds however long the click itself takes.
    const pickedAt = Date.now();
    await user.click(option);
    await waitFor(() => expect(requests('PATCH', 'hypotheses')).toHaveLength(1));
    const statusPatch = requests('PATCH', 'hypotheses')[0];
    expect(statusPatch?.body).toEqual({ status: 'proven' });
    expect(statusPatch?.url.searchParams.get('id')).toBe(`eq.${FACTOR_ID}`);
    expect((statusPatch?.at ?? 0) - pickedAt).toBeGreaterThanOrEqual(200);

    const titleBox = within(factor).getByRole('textbox', { name: 'Factor title' });
    await user.type(titleBox, 'Poo');
    const typedAt = Date.now();
    await user.type(titleBox, 'l');
    await waitFor(() => expect(requests('PATCH', 'hypotheses').at(-1)?.body).toEqual({ title: 'Pool' }));
    const titlePatch = requests('PATCH', 'hypotheses').at(-1);
    expect((titlePatch?.at ?? 0) - typedAt).toBeGreaterThanOrEqual(1000);
  });

  it('deletes a hypothesis with its comments and evidence in one call', async () => {
    serveTree();
    const user = await openActionPlan();
    await user.click(screen.getByRole('button', { name: 'Delete (no title)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete hypothesis' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(state.recorded.filter((request) => request.method === 'DELETE')).toHaveLength(1));
    expect(state.recorded.filter((request) => request.method === 'DELETE').map((request) => request.url.pathname)).toEqual([`/api/hypotheses/${FACTOR_ID}`]);
  });

  it('marks a hypothesis disproven instead of deleting it when asked to', async () => {
    serveTree();
    const user = await openActionPlan();
    await user.click(screen.getByRole('button', { name: 'Delete (no title)' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete hypothesis' })).getByRole('button', { name: 'Disprove' }));
    await waitFor(() => expect(requests('PATCH', 'hypotheses')[0]?.body).toEqual({ status: 'disproven' }));
    expect(state.recorded.filter((request) => request.method === 'DELETE')).toEqual([]);
  });

  it('offers the root hypothesis the same Delete dialog, where it may be disproven but not deleted (ADR 0084)', async () => {
    serveTree();
    const user = await openActionPlan();
    await user.click(screen.getByRole('button', { name: 'Delete Checkout is slow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete hypothesis' });
    expect(dialog).toHaveTextContent("is the incident's root hypothesis");
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disprove' }));
    await waitFor(() => expect(requests('PATCH', 'hypotheses')[0]?.body).toEqual({ status: 'disproven' }));
    expect(requests('PATCH', 'hypotheses')[0]?.url.searchParams.get('id')).toBe(`eq.${ROOT_ID}`);
    expect(state.recorded.filter((request) => request.method === 'DELETE')).toEqual([]);
  });

  it('opens every hypothesis comment with comments=true and shows mentions by name', async () => {
    serveTree();
    await openActionPlan('&comments=true');
    expect(screen.getByRole('switch', { name: 'Collapse All' })).toBeChecked();
    const comments = screen.getByRole('list', { name: 'Comments on (no title)' });
    expect(within(comments).getByText('Saw it on @Cora Commander dashboard')).toBeInTheDocument();
  });

  it('creates a factor under the root with the possible status', async () => {
    serveTree();
    const user = await openActionPlan();
    const root = screen.getByRole('article', { name: 'Root hypothesis: Checkout is slow' });
    await user.click(within(root).getByRole('button', { name: 'Add factor' }));
    await user.type(within(root).getByRole('textbox', { name: 'New factor title' }), 'Bad deploy{Enter}');
    await waitFor(() => expect(requests('POST', 'hypotheses')).toHaveLength(1));
    expect(requests('POST', 'hypotheses')[0]?.body).toMatchObject({ incident_id: INCIDENT_ID, parent_id: ROOT_ID, type: 'factor', title: 'Bad deploy', status: 'possible' });
  });

  it("asks before removing evidence and reports 'Evidence delete failed' when the server refuses", async () => {
    serveTree();
    state.writes['DELETE evidences'] = () => json({ code: '42501', message: 'denied', details: null, hint: null }, { status: 403 });
    const user = await openActionPlan();
    await user.click(screen.getAllByRole('button', { name: 'Delete evidence' })[0] as HTMLElement);
    const confirm = await screen.findByRole('dialog', { name: 'Delete evidence' });
    expect(requests('DELETE', 'evidences')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Evidence delete failed')).toBeInTheDocument();
  });

  it("marks definition-of-done evidence as resolved after confirmation, with its own failure message", async () => {
    serveTree();
    state.writes['PATCH evidences'] = () => json({ code: '42501', message: 'denied', details: null, hint: null }, { status: 403 });
    const user = await openActionPlan();
    await user.click(screen.getAllByRole('button', { name: 'Mark as resolved' })[0] as HTMLElement);
    await user.click(within(await screen.findByRole('dialog', { name: 'Mark as resolved' })).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(requests('PATCH', 'evidences')[0]?.body).toEqual({ done: true }));
    await user.click(screen.getAllByRole('button', { name: 'Remove from definition of done' })[0] as HTMLElement);
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove from definition of done' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removing evidence from definition of done failed')).toBeInTheDocument();
  });
});
