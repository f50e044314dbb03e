import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEBOUNCE_MS } from '@opsdeck/shared';
import { EVIDENCE_ID, INCIDENT_ID, ROOT_ID, evidenceFixture, failure, hypothesisFixture, incidentFixture, json, renderAt, requests, setupIncidentServer, state } from '../test/incident-test-server';
import type { IncidentDetail } from '../api/types';
import { IncidentDetailPage } from './incident-detail-page';

setupIncidentServer();

function serve(incident: IncidentDetail | null) {
  state.tables.incidents = () => json(incident === null ? [] : [incident]);
}

afterEach(() => {
  vi.useRealTimers();
});

function renderDetail(query = '') {
  return renderAt(`/incidents/${INCIDENT_ID}${query}`, '/incidents/:id', <IncidentDetailPage />);
}

async function choose(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, option: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Incident detail', () => {
  it("shows 'Incident not found' for an unknown incident", async () => {
    serve(null);
    renderDetail();
    expect(screen.getByTestId('incident-skeleton')).toBeInTheDocument();
    expect(await screen.findByText('Incident not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Incidents' })).toHaveAttribute('href', '/incidents');
  });

  it('says why the incident could not be loaded and loads it on Try again', async () => {
    const user = userEvent.setup();
    state.tables.incidents = () => failure('permission denied for table incidents', 403);
    renderDetail();
    expect(await screen.findByText('The incident could not be loaded: permission denied for table incidents')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Incidents' })).toHaveAttribute('href', '/incidents');
    serve(incidentFixture());
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout is slow');
  });

  it('says why the responders or the changelog could not be loaded, beside the rest of the incident', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    state.tables.responders = () => failure('responders are unavailable');
    state.tables.incident_histories = () => failure('history is unavailable');
    renderDetail();
    expect(await screen.findByText('Responders could not be loaded: responders are unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Changelog' }));
    expect(await screen.findByText('The changelog could not be loaded: history is unavailable')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout is slow');
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

  it('wraps the title instead of cutting it, and keeps it on one line when Enter is pressed', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    renderDetail();
    const title = await screen.findByRole('textbox', { name: 'Incident title' });
    expect(title.tagName).toBe('TEXTAREA');
    expect(title).toHaveClass('field-sizing-content', 'break-words');
    await user.type(title, ' now{Enter}');
    expect(title).toHaveValue('Checkout is slow now');
    expect(title).not.toHaveFocus();
  });

  it('asks for a hypothesis, then for text, before sending a comment, marking the field and saying why beside it', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Send comment' }));
    const hypothesis = screen.getByRole('combobox', { name: 'Hypothesis' });
    await waitFor(() => expect(hypothesis).toHaveAttribute('aria-invalid', 'true'));
    expect(hypothesis).toHaveAccessibleDescription('Please select any hypothesis');
    await choose(user, hypothesis, 'Checkout is slow');
    expect(hypothesis).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Send comment' }));
    const comment = screen.getByRole('textbox', { name: 'Comment' });
    await waitFor(() => expect(comment).toHaveAttribute('aria-invalid', 'true'));
    expect(comment).toHaveAccessibleDescription('Please add comment details');
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
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reopen' })).not.toBeInTheDocument();
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

describe('Incident detail: ids, evidence payloads, title and definition of done', () => {
  /** The log evidence of the demo's INC-1 as the database holds it: spec 000 log lines, two of them selected. */
  const inc1LogEvidence = {
    lines: [
      { timestamp: '2024-05-01T10:42:01Z', message: 'request id=8f4 path=/checkout 200 1930ms', labels: { level: 'info', service: 'checkout' } },
      { timestamp: '2024-05-01T10:42:02Z', message: 'timeout acquiring connection after 2000ms', labels: { level: 'error', service: 'checkout' } },
      { timestamp: '2024-05-01T10:42:03Z', message: 'pool wait 1200ms (active=50 idle=0)' },
    ],
    selected_lines: [1],
    start: '1h',
    includeMessages: true,
    comment: 'Timeouts start at 10:42',
  };

  function logEvidence(id: string, payload: unknown) {
    return { ...evidenceFixture({ id, type: 'log', description: `Log evidence ${id}`, check: null, check_id: null }), evidence: payload };
  }

  function serveRaw(evidences: unknown[]) {
    const incident = incidentFixture();
    state.tables.incidents = () => json([{ ...incident, hypotheses: [{ ...hypothesisFixture(), evidences }] }]);
  }

  it('opens an incident by its display id, asking the server by incident_id', async () => {
    serve(incidentFixture());
    renderAt('/incidents/INC-7', '/incidents/:id', <IncidentDetailPage />);
    expect(await screen.findByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout is slow');
    const params = requests('GET', 'incidents')[0]?.url.searchParams;
    expect(params?.get('incident_id')).toBe('eq.INC-7');
    expect(params?.has('id')).toBe(false);
  });

  it('shows a comment sent from a page opened by display id at once', async () => {
    const user = userEvent.setup();
    serve(incidentFixture());
    let answer: (response: Response) => void = () => undefined;
    state.writes['POST comments'] = () => new Promise((resolve) => (answer = resolve));
    renderAt('/incidents/INC-7', '/incidents/:id', <IncidentDetailPage />);
    await choose(user, await screen.findByRole('combobox', { name: 'Hypothesis' }), 'Checkout is slow');
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Paging the DBA{Enter}');
    await waitFor(() => expect(requests('POST', 'comments')).toHaveLength(1));
    expect(await screen.findByText('Paging the DBA')).toBeInTheDocument();
    expect(requests('POST', 'comments')[0]?.body).toMatchObject({ incident_id: INCIDENT_ID });
    answer(json([], { status: 201 }));
  });

  it('shows log lines stored as timestamp, message and labels with the time, the message and label chips', async () => {
    serveRaw([logEvidence(EVIDENCE_ID, inc1LogEvidence)]);
    renderDetail();
    const lines = await screen.findByRole('list', { name: 'Evidence lines' });
    const items = within(lines).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[1]).toHaveTextContent('timeout acquiring connection after 2000ms');
    expect(items[1]).toHaveAttribute('data-selected', 'true');
    expect(items[0]).not.toHaveAttribute('data-selected');
    const time = items[1]?.querySelector('time');
    expect(time).toHaveAttribute('dateTime', '2024-05-01T10:42:02Z');
    expect(time?.textContent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:02$/);
    expect(within(items[1] as HTMLElement).getByText('level=error')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).getByText('service=checkout')).toBeInTheDocument();
    expect(items[2]).toHaveTextContent('pool wait 1200ms (active=50 idle=0)');
  });

  it('still shows log lines of older rows that hold plain text', async () => {
    serveRaw([logEvidence(EVIDENCE_ID, { lines: ['10:42:02 ERROR checkout timeout'], selected_lines: [0] })]);
    renderDetail();
    const lines = await screen.findByRole('list', { name: 'Evidence lines' });
    expect(within(lines).getByRole('listitem')).toHaveTextContent('10:42:02 ERROR checkout timeout');
  });

  it('shows a malformed evidence row as a message in its place and the rest of the page as usual', async () => {
    const otherId = '66666666-6666-4666-8666-666666666666';
    serveRaw([logEvidence(EVIDENCE_ID, { lines: [{ timestamp: '2024-05-01T10:42:02Z', message: { text: 'nested' } }] }), logEvidence(otherId, inc1LogEvidence)]);
    renderDetail();
    expect(await screen.findByText(/^This evidence could not be shown: evidence\.lines\[0\]: a log line must be text/)).toBeInTheDocument();
    expect(screen.getByText(`Log evidence ${otherId}`)).toBeInTheDocument();
    expect(screen.getByText('timeout acquiring connection after 2000ms')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Incident title' })).toHaveValue('Checkout is slow');
  });

  it('names a payload that is not an object at all', async () => {
    serveRaw([logEvidence(EVIDENCE_ID, 'just text')]);
    renderDetail();
    expect(await screen.findByText('This evidence could not be shown: evidence: it must be an object')).toBeInTheDocument();
  });

  it("shows a responder whose properties are malformed with a message instead of its details", async () => {
    serve(incidentFixture());
    state.tables.responders = () =>
      json([
        {
          id: 'r1',
          incident_id: INCIDENT_ID,
          type: 'system',
          team_id: null,
          person_id: null,
          created_by: null,
          external_id: null,
          properties: ['email'],
          created_at: '2024-03-01T10:00:00Z',
          acknowledge_time: null,
          signoff_time: null,
          close_time: null,
          deleted_at: null,
          team: { id: 't1', name: 'DBA', icon: null, spec: 'broken' },
          person: null,
        },
      ]);
    renderDetail();
    expect(await screen.findByText("This responder's details could not be shown: properties: it must be an object")).toBeInTheDocument();
    expect(screen.getByText('DBA')).toBeInTheDocument();
  });

  it("keeps an emptied title open with 'This field is required' and sends nothing until it has text again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    serve(incidentFixture());
    const { queryClient } = renderDetail();
    const title = await screen.findByRole('textbox', { name: 'Incident title' });
    await user.clear(title);
    await user.tab();
    expect(screen.getByRole('alert')).toHaveTextContent('This field is required');
    expect(title).toHaveValue('');
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('This field is required');
    // Past the save delay: a save would have started its mutation in the timer, before any request reached the server.
    act(() => vi.advanceTimersByTime(DEBOUNCE_MS.fieldEdit));
    expect(queryClient.isMutating()).toBe(0);
    expect(requests('PATCH', 'incidents')).toHaveLength(0);
    await user.type(title, 'Checkout fails');
    await waitFor(() => expect(requests('PATCH', 'incidents')).toHaveLength(1));
    expect(requests('PATCH', 'incidents')[0]?.body).toEqual({ title: 'Checkout fails' });
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
  });

  it('shows a long definition-of-done criterion whole, wrapping instead of cutting it short', async () => {
    const user = userEvent.setup();
    const criterion = 'Every checkout request answers within 2 seconds for an hour after the index is created';
    serve(
      incidentFixture({
        hypotheses: [
          hypothesisFixture({
            evidences: [
              evidenceFixture({ type: 'comment', description: criterion, definition_of_done: true, check: null, check_id: null, evidence: { comment: criterion } }),
            ],
          }),
        ],
      }),
    );
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Definition of done' }));
    const list = await screen.findByRole('list', { name: 'Definition of done' });
    const shown = within(list).getByText(criterion);
    expect(shown).not.toHaveClass('truncate');
    expect(shown).toHaveClass('break-words');
  });
});

