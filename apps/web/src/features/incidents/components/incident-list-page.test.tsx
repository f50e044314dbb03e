import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEBOUNCE_MS } from '@opsdeck/shared';
import { INCIDENT_ID, PERSON_ID, failure, json, renderAt, requests, setupIncidentServer, state } from '../test/incident-test-server';
import { IncidentListPage } from './incident-list-page';

const row = {
  id: INCIDENT_ID,
  incident_id: 'INC-7',
  title: 'Checkout is slow',
  type: 'availability',
  severity: 'high',
  status: 'open',
  created_by: PERSON_ID,
  created_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  responders: Array.from({ length: 7 }, (_, index) => ({
    id: `r${index}`,
    type: 'person',
    person: { id: `p${index}`, name: `Person ${index}`, avatar: null },
    team: null,
  })),
};

setupIncidentServer();

afterEach(() => {
  vi.useRealTimers();
});

const listRequests = () => requests('GET', 'incidents');
const lastList = () => listRequests().at(-1)?.url.searchParams;

describe('Incident list', () => {
  it('asks the server for open incidents, newest first, one counted page at a time', async () => {
    state.tables.incidents = () => json([row], { headers: { 'Content-Range': '0-0/1' } });
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    const table = await screen.findByRole('table', { name: 'Incidents' });
    expect(await within(table).findByText('Checkout is slow')).toBeInTheDocument();
    for (const header of ['Id', 'Type', 'Severity', 'Status', 'Name', 'Age', 'Responders']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const params = lastList();
    expect(params?.get('status')).toBe('eq.open');
    expect(params?.get('order')).toBe('created_at.desc,id.desc');
    expect(params?.get('offset')).toBe('0');
    expect(params?.get('limit')).toBe('50');
    expect(params?.get('responders.deleted_at')).toBe('is.null');
    expect(listRequests()[0]).toBeDefined();
    expect(within(table).getByText('INC-7')).toBeInTheDocument();
    expect(within(table).getByText('2h')).toBeInTheDocument();
  });

  it('shows the first five responders and sums up the rest', async () => {
    state.tables.incidents = () => json([row], { headers: { 'Content-Range': '0-0/1' } });
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    const table = await screen.findByRole('table', { name: 'Incidents' });
    expect(await within(table).findByText('+2')).toBeInTheDocument();
    expect(within(table).getAllByRole('img', { name: /Person/ })).toHaveLength(5);
    expect(within(table).getByRole('columnheader', { name: 'Responders' })).not.toHaveAttribute('aria-sort');
  });

  it('turns the filters of the query string into eq filters and drops the value all', async () => {
    renderAt(`/incidents?type=security&severity=critical&status=all&owner=${PERSON_ID}&component=c1`, '/incidents', <IncidentListPage />);
    await waitFor(() => expect(listRequests().length).toBeGreaterThan(0));
    const params = lastList();
    expect(params?.get('type')).toBe('eq.security');
    expect(params?.get('severity')).toBe('eq.critical');
    expect(params?.has('status')).toBe(false);
    expect(params?.get('created_by')).toBe(`eq.${PERSON_ID}`);
    expect(params?.get('hypotheses.evidences.component_id')).toBe('eq.c1');
    expect(params?.get('select')).toContain('hypotheses!inner(evidences!inner())');
  });

  it("shows 'There are no incidents matching this criteria' when nothing matches", async () => {
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    expect(await screen.findByText('There are no incidents matching this criteria')).toBeInTheDocument();
  });

  it('searches 400 ms after typing stops and keeps the search in the query string', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    const box = screen.getByRole('searchbox', { name: 'Search for incident' });
    // From the change to the check no other task runs, so the clock moves only as far as the test moves it.
    fireEvent.change(box, { target: { value: 'checkout' } });
    act(() => vi.advanceTimersByTime(DEBOUNCE_MS.search - 1));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/incidents$/);
    expect(listRequests()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    await waitFor(() => expect(lastList()?.get('or')).toBe('(title.imatch.checkout,incident_id.imatch.checkout)'));
    expect(screen.getByTestId('location')).toHaveTextContent('/incidents?search=checkout');
  });

  it('sorts on the server when a column header is clicked', async () => {
    const user = userEvent.setup();
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(lastList()?.get('order')).toMatch(/^title\./));
    expect(screen.getByTestId('location')).toHaveTextContent('sortBy=name');
  });

  it('sorts by severity rank on the server rather than by the severity names, both ways', async () => {
    const user = userEvent.setup();
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    await waitFor(() => expect(listRequests()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Severity' }));
    await waitFor(() => expect(lastList()?.get('order')).toMatch(/^severity_rank\./));
    const first = lastList()?.get('order');
    expect(['severity_rank.asc,id.asc', 'severity_rank.desc,id.desc']).toContain(first);
    await user.click(screen.getByRole('button', { name: 'Severity' }));
    await waitFor(() => expect(lastList()?.get('order')).not.toBe(first));
    expect(['severity_rank.asc,id.asc', 'severity_rank.desc,id.desc']).toContain(lastList()?.get('order'));
  });

  it('opens the incident when its row is clicked', async () => {
    const user = userEvent.setup();
    state.tables.incidents = () => json([row], { headers: { 'Content-Range': '0-0/1' } });
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    await user.click(await screen.findByText('Checkout is slow'));
    expect(screen.getByTestId('location')).toHaveTextContent(`/incidents/${INCIDENT_ID}`);
  });

  it('says why the incidents could not be loaded and asks again on Try again', async () => {
    const user = userEvent.setup();
    state.tables.incidents = () => failure('statement timeout');
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    expect(await screen.findByText('Incidents could not be loaded: statement timeout')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Incidents' })).not.toBeInTheDocument();
    state.tables.incidents = () => json([row], { headers: { 'Content-Range': '0-0/1' } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Checkout is slow')).toBeInTheDocument();
    expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument();
  });

  it('offers the create button only to users who may write incidents', async () => {
    state.roles = ['viewer'];
    renderAt('/incidents', '/incidents', <IncidentListPage />);
    await screen.findByText('There are no incidents matching this criteria');
    expect(screen.queryByRole('button', { name: 'Create New Incident' })).not.toBeInTheDocument();
  });
});
