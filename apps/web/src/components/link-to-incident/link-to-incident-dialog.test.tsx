import '@/components/test-support/browser-polyfills';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { AppToaster } from '@/components/toast/app-toaster';
import { LinkToIncidentButton } from './link-to-incident-button';
import { LinkToIncidentDialog, type LinkableEvidence } from './link-to-incident-dialog';

const PERSON_ID = '11111111-1111-4111-8111-111111111111';
const INCIDENT = { id: '22222222-2222-4222-8222-222222222222', incident_id: 'INC-7', title: 'Checkout is slow' };
const HYPOTHESIS = { id: '33333333-3333-4333-8333-333333333333', title: 'Checkout is slow', type: 'root' };

interface Recorded {
  method: string;
  table: string;
  url: URL;
  body: unknown;
}

let roles = ['responder'];
let flags: { name: string; value: string }[] = [];
let recorded: Recorded[] = [];
let evidenceFails = false;

const server = setupServer(
  http.get('*/api/auth/sessions/whoami', () =>
    HttpResponse.json({ id: 's', active: true, identity: { id: PERSON_ID, traits: {} }, person: { id: PERSON_ID, name: 'Rey', email: null, avatar: null }, roles }),
  ),
  http.get('*/api/db/:table', ({ params, request }) => {
    recorded.push({ method: 'GET', table: String(params.table), url: new URL(request.url), body: null });
    if (params.table === 'properties') return HttpResponse.json(flags);
    if (params.table === 'incidents') return HttpResponse.json([INCIDENT]);
    if (params.table === 'hypotheses') return HttpResponse.json([HYPOTHESIS]);
    return HttpResponse.json([]);
  }),
  http.post('*/api/db/:table', async ({ params, request }) => {
    const body: unknown = await request.json();
    recorded.push({ method: 'POST', table: String(params.table), url: new URL(request.url), body });
    if (params.table === 'evidences' && evidenceFails) return HttpResponse.json({ code: '42501', message: 'denied', details: null, hint: null }, { status: 403 });
    if (params.table === 'incidents') return HttpResponse.json({ id: 'new-incident', incident_id: 'INC-8' }, { status: 201 });
    if (params.table === 'hypotheses') return HttpResponse.json({ id: 'new-root' }, { status: 201 });
    return HttpResponse.json([], { status: 201 });
  }),
);

beforeAll(() => {
  configure({ asyncUtilTimeout: 5000 });
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  roles = ['responder'];
  flags = [];
  recorded = [];
  evidenceFails = false;
});
afterAll(() => server.close());

const evidence: LinkableEvidence = { type: 'config', config_id: '44444444-4444-4444-8444-444444444444', description: 'payments-db' };

function renderWith(children: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{children}</MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
}

const posts = (table: string) => recorded.filter((request) => request.method === 'POST' && request.table === table);

async function pick(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: new RegExp(name) }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Link to Incident', { timeout: 30_000 }, () => {
  it('asks for an incident, then for a hypothesis of an existing incident', async () => {
    const user = userEvent.setup();
    renderWith(<LinkToIncidentDialog open onOpenChange={() => {}} evidence={evidence} />);
    const dialog = await screen.findByRole('dialog', { name: 'Link to Incident' });
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create an incident')).toBeInTheDocument();
    await pick(user, 'Incident', 'INC-7 Checkout is slow');
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create a hypothesis')).toBeInTheDocument();
    expect(posts('evidences')).toHaveLength(0);
  });

  it('attaches the evidence to the chosen hypothesis and says so with a link to the incident', async () => {
    const user = userEvent.setup();
    const onLinked = vi.fn();
    renderWith(<LinkToIncidentDialog open onOpenChange={() => {}} evidence={evidence} onLinked={onLinked} />);
    await screen.findByRole('dialog', { name: 'Link to Incident' });
    await pick(user, 'Incident', 'INC-7 Checkout is slow');
    await pick(user, 'Hypothesis', 'Checkout is slow (root)');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Linked to incident successfully')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'INC-7' })).toHaveAttribute('href', `/incidents/${INCIDENT.id}`);
    expect(posts('evidences')[0]?.body).toEqual({ ...evidence, hypothesis_id: HYPOTHESIS.id, created_by: PERSON_ID });
    expect(onLinked).toHaveBeenCalledWith(true);
  });

  it('creates a new incident with its root hypothesis and attaches the evidence there', async () => {
    const user = userEvent.setup();
    renderWith(<LinkToIncidentDialog open onOpenChange={() => {}} evidence={evidence} />);
    await screen.findByRole('dialog', { name: 'Link to Incident' });
    await pick(user, 'Incident', 'Create new incident');
    expect(screen.getByRole('combobox', { name: /Type/ })).toHaveTextContent('Availability');
    expect(screen.getByRole('combobox', { name: /Severity/ })).toHaveTextContent('Low');
    await user.type(screen.getByRole('textbox', { name: /Incident title/ }), 'Payments database down');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(posts('evidences')).toHaveLength(1));
    expect(posts('incidents')[0]?.body).toMatchObject({ title: 'Payments database down', type: 'availability', severity: 'low', status: 'open', created_by: PERSON_ID });
    expect(posts('hypotheses')[0]?.body).toMatchObject({ incident_id: 'new-incident', type: 'root', status: 'possible' });
    expect(posts('evidences')[0]?.body).toMatchObject({ hypothesis_id: 'new-root', config_id: evidence.config_id });
  });

  it('tells the caller when the evidence could not be attached and closes', async () => {
    evidenceFails = true;
    const user = userEvent.setup();
    const onLinked = vi.fn();
    const onOpenChange = vi.fn();
    renderWith(<LinkToIncidentDialog open onOpenChange={onOpenChange} evidence={evidence} onLinked={onLinked} />);
    await screen.findByRole('dialog', { name: 'Link to Incident' });
    await pick(user, 'Incident', 'INC-7 Checkout is slow');
    await pick(user, 'Hypothesis', 'Checkout is slow (root)');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(onLinked).toHaveBeenCalledWith(false));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('offers Attach as Evidence only to incident writers while the incidents area is on', async () => {
    renderWith(<LinkToIncidentButton evidence={evidence} />);
    expect(await screen.findByRole('button', { name: 'Attach as Evidence' })).toBeInTheDocument();
  });

  it('hides Attach as Evidence from viewers', async () => {
    roles = ['viewer'];
    renderWith(<LinkToIncidentButton evidence={evidence} />);
    await waitFor(() => expect(recorded.some((request) => request.table === 'properties')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });

  it('hides Attach as Evidence when the incidents feature is disabled', async () => {
    flags = [{ name: 'incidents.disable', value: 'true' }];
    renderWith(<LinkToIncidentButton evidence={evidence} />);
    await waitFor(() => expect(recorded.some((request) => request.table === 'properties')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });
});
