import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INCIDENT_ID, PERSON_ID, failure, json, renderAt, requests, setupIncidentServer, state } from '../test/incident-test-server';
import { AddResponderDialog } from './add-responder-dialog';

const teams = [
  { id: 't1', name: 'Database Reliability', icon: null, spec: { responder_clients: { email: { defaults: { subject: 'Incident update' } } } } },
  { id: 't2', name: 'Edge', icon: null, spec: {} },
];

setupIncidentServer();

function renderWizard() {
  state.tables.teams = () => json(teams);
  state.tables.people = () => json([{ id: 'p2', name: 'Cora Commander', avatar: null }]);
  renderAt('/', '/', <AddResponderDialog open onOpenChange={() => {}} incidentId={INCIDENT_ID} />);
  return userEvent.setup();
}

async function pick(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  await user.click(screen.getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Add-responder wizard', () => {
  it('adds a person directly', async () => {
    const user = renderWizard();
    await user.click(screen.getByRole('radio', { name: 'Person' }));
    await pick(user, 'Person', 'Cora Commander');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Responder added successfully')).toBeInTheDocument();
    expect(requests('POST', 'responders')[0]?.body).toEqual({
      type: 'person',
      incident_id: INCIDENT_ID,
      created_by: PERSON_ID,
      team_id: null,
      person_id: 'p2',
      properties: { responderType: 'person' },
    });
    expect(requests('POST', 'responders')[0]?.url.searchParams.get('select')).toBe('*');
  });

  it("keeps Next disabled until a team is chosen and says when the team has no responder clients", async () => {
    const user = renderWizard();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await pick(user, 'Team', 'Edge');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('There were no responders configured for this team')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Add Responder: Select Responder' })).toBeInTheDocument();
  });

  it("requires every field of the responder type with 'Please provide valid value'", async () => {
    const user = renderWizard();
    await pick(user, 'Team', 'Database Reliability');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: 'Email' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Responder: Save Team Responder' });
    expect(within(dialog).getByRole('textbox', { name: /Subject/ })).toHaveValue('Incident update');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('Please provide valid value')).toHaveLength(2);
    expect(requests('POST', 'responders')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /To/ }), 'oncall@example.com');
    await user.type(within(dialog).getByRole('textbox', { name: /Body/ }), 'Please look');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests('POST', 'responders')).toHaveLength(1));
    expect(requests('POST', 'responders')[0]?.body).toMatchObject({
      type: 'system',
      team_id: 't1',
      person_id: null,
      properties: { responderType: 'email', to: 'oncall@example.com', subject: 'Incident update', body: 'Please look' },
    });
  });

  it('shows the server message when adding fails', async () => {
    state.writes['POST responders'] = () => failure('Responder property to is required');
    const user = renderWizard();
    await user.click(screen.getByRole('radio', { name: 'Person' }));
    await pick(user, 'Person', 'Cora Commander');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Responder property to is required')).toBeInTheDocument();
  });
});
