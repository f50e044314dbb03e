import '@/components/test-support/browser-polyfills';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { RolesAndFlagsLoaded, waitForRolesAndFlags } from '@/test/access-loaded';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { CreateIncidentDialog } from './create-incident-dialog';
import { LinkToIncidentButton } from './link-to-incident-button';
import { LinkToIncidentDialog } from './link-to-incident-dialog';

const INCIDENT = { id: '22222222-2222-4222-8222-222222222222', incident_id: 'INC-7', title: 'Checkout is slow' };
const NEW_INCIDENT_ID = '55555555-5555-4555-8555-555555555555';
const HYPOTHESIS = { id: '33333333-3333-4333-8333-333333333333', title: 'Checkout is slow', type: 'root' };

interface Recorded extends RecordedRequest {
  /** The data-API table, or the domain route's path. */
  table: string;
}

let roles = ['responder'];
let flags: { name: string; value: string }[] = [];
let recorded: Recorded[] = [];
let linkFails = false;

async function record(table: string, request: Request): Promise<RecordedRequest> {
  const read = await readRequest(request);
  recorded.push({ ...read, table });
  return read;
}

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/:table', async ({ params, request }) => {
    await record(String(params.table), request);
    if (params.table === 'properties') return HttpResponse.json(flags);
    if (params.table === 'incidents') return HttpResponse.json([INCIDENT]);
    if (params.table === 'hypotheses') return HttpResponse.json([HYPOTHESIS]);
    return HttpResponse.json([]);
  }),
  http.post('*/api/db/:table', async ({ params, request }) => {
    await record(String(params.table), request);
    return HttpResponse.json([], { status: 201 });
  }),
  http.post('*/api/incidents', async ({ request }) => {
    await record('/api/incidents', request);
    if (linkFails) return HttpResponse.json({ code: 'OD_INVALID_VALUE', message: 'A value in the request is not valid', details: null, hint: null }, { status: 400 });
    return HttpResponse.json({ id: NEW_INCIDENT_ID, incident_id: 'INC-8', root_hypothesis_id: 'new-root', evidence_id: 'new-evidence' }, { status: 201 });
  }),
  http.post('*/api/incidents/:id/evidence', async ({ params, request }) => {
    const { body } = await record(`/api/incidents/${String(params.id)}/evidence`, request);
    if (linkFails) return HttpResponse.json({ code: 'OD403', message: 'denied', details: null, hint: null }, { status: 403 });
    const hypothesisId = (body as { hypothesis_id?: string }).hypothesis_id ?? 'new-hypothesis';
    return HttpResponse.json({ id: 'new-evidence', hypothesis_id: hypothesisId, incident: INCIDENT }, { status: 201 });
  }),
);

afterEach(() => {
  roles = ['responder'];
  flags = [];
  recorded = [];
  linkFails = false;
});

const evidence: LinkableEvidence = { type: 'config', config_id: '44444444-4444-4444-8444-444444444444', description: 'payments-db' };

function renderWith(children: ReactNode) {
  renderWithProviders(children, { toaster: true });
}

const posts = (table: string) => recorded.filter((request) => request.method === 'POST' && request.table === table);

async function pick(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: new RegExp(name) }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Link to Incident', () => {
  it('asks for an incident, then for a hypothesis of an existing incident', async () => {
    const user = userEvent.setup();
    renderWith(<LinkToIncidentDialog open onOpenChange={() => {}} evidence={evidence} />);
    const dialog = await screen.findByRole('dialog', { name: 'Link to Incident' });
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create an incident')).toBeInTheDocument();
    await pick(user, 'Incident', 'INC-7 Checkout is slow');
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create a hypothesis')).toBeInTheDocument();
    expect(recorded.filter((request) => request.method === 'POST')).toEqual([]);
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
    expect(posts(`/api/incidents/${INCIDENT.id}/evidence`).map((request) => request.body)).toEqual([{ hypothesis_id: HYPOTHESIS.id, evidence }]);
    expect(recorded.filter((request) => request.method === 'POST' && request.table !== `/api/incidents/${INCIDENT.id}/evidence`)).toEqual([]);
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
    expect(await screen.findByRole('link', { name: 'INC-8' })).toHaveAttribute('href', `/incidents/${NEW_INCIDENT_ID}`);
    expect(posts('/api/incidents').map((request) => request.body)).toEqual([
      { title: 'Payments database down', description: 'payments-db', type: 'availability', severity: 'low', status: 'open', evidence },
    ]);
    expect(recorded.filter((request) => request.method === 'POST' && request.table !== '/api/incidents')).toEqual([]);
  });

  it('creates a new hypothesis and attaches the evidence with one call', async () => {
    const user = userEvent.setup();
    renderWith(<LinkToIncidentDialog open onOpenChange={() => {}} evidence={evidence} />);
    await screen.findByRole('dialog', { name: 'Link to Incident' });
    await pick(user, 'Incident', 'INC-7 Checkout is slow');
    await pick(user, 'Hypothesis', 'Create new hypothesis');
    await user.type(screen.getByRole('textbox', { name: /Hypothesis title/ }), ' Connection pool exhausted ');
    await user.clear(screen.getByRole('textbox', { name: /Description/ }));
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Linked to incident successfully')).toBeInTheDocument();
    expect(posts(`/api/incidents/${INCIDENT.id}/evidence`).map((request) => request.body)).toEqual([
      { hypothesis_title: 'Connection pool exhausted', evidence: { type: 'config', config_id: evidence.config_id } },
    ]);
  });

  it('creates the incident with its root hypothesis and the evidence from Create New Incident in one call', async () => {
    const user = userEvent.setup();
    renderWith(
      <CreateIncidentDialog open onOpenChange={() => {}} source={{ kind: 'topology', componentId: '66666666-6666-4666-8666-666666666666', description: 'checkout' }} />,
    );
    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Checkout down');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(posts('/api/incidents')).toHaveLength(1));
    expect(posts('/api/incidents')[0]?.body).toEqual({
      title: 'Checkout down',
      description: '',
      type: 'availability',
      severity: 'low',
      status: 'open',
      evidence: { type: 'topology', component_id: '66666666-6666-4666-8666-666666666666', description: 'checkout' },
    });
  });

  it('keeps a title over 256 characters in the field and says so, without sending it', async () => {
    const user = userEvent.setup();
    renderWith(<CreateIncidentDialog open onOpenChange={() => {}} />);
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await user.click(title);
    await user.paste('x'.repeat(257));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('At most 256 characters')).toBeInTheDocument();
    expect(title).toHaveValue('x'.repeat(257));
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(posts('/api/incidents')).toHaveLength(0);
  });

  it('tells the caller when the evidence could not be attached and closes', async () => {
    linkFails = true;
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
    renderWith(
      <>
        <RolesAndFlagsLoaded />
        <LinkToIncidentButton evidence={evidence} />
      </>,
    );
    await waitForRolesAndFlags();
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });

  it('hides Attach as Evidence when the incidents feature is disabled', async () => {
    flags = [{ name: 'incidents.disable', value: 'true' }];
    renderWith(
      <>
        <RolesAndFlagsLoaded />
        <LinkToIncidentButton evidence={evidence} />
      </>,
    );
    await waitForRolesAndFlags();
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });
});
