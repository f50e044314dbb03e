import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { EVIDENCE_ID, PERSON_ID, ROOT_ID, evidenceFixture, hypothesisFixture, incidentFixture, renderAt, requests, setupIncidentServer, state } from '../test/incident-test-server';
import { DefinitionOfDoneDialog } from './definition-of-done-dialog';

setupIncidentServer();

const incident = incidentFixture({
  hypotheses: [
    hypothesisFixture({
      evidences: [
        evidenceFixture(),
        evidenceFixture({
          id: 'e2',
          type: 'topology',
          check: null,
          check_id: null,
          component_id: 'c1',
          component: { id: 'c1', name: 'payments-api', icon: null, status: 'healthy', topology_id: 't1' },
        }),
      ],
    }),
  ],
});

function renderDialog() {
  renderAt('/', '/', <DefinitionOfDoneDialog open onOpenChange={() => {}} incident={incident} />);
  return userEvent.setup();
}

describe('Definition-of-done wizard', () => {
  it('adds a manual item as comment evidence on the root hypothesis, with Add disabled while empty', async () => {
    const user = renderDialog();
    await user.click(screen.getByRole('radio', { name: 'Manual' }));
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /What must be true/ }), 'Error rate below 1%');
    await user.click(add);
    await waitFor(() => expect(requests('POST', 'evidences')).toHaveLength(1));
    expect(requests('POST', 'evidences')[0]?.body).toMatchObject({
      hypothesis_id: ROOT_ID,
      type: 'comment',
      description: 'Error rate below 1%',
      evidence: { comment: 'Error rate below 1%' },
      definition_of_done: true,
      created_by: PERSON_ID,
    });
  });

  it('suggests a healthy-for-five-minutes script for a check and saves it after the server accepts it', async () => {
    const user = renderDialog();
    await user.click(screen.getByRole('radio', { name: /checkout-latency/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('textbox', { name: /Script/ })).toHaveValue('status == healthy && age > duration("5m")');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(requests('PATCH', 'evidences')).toHaveLength(1));
    expect(requests('POST', 'validate')[0]?.body).toEqual({ script: 'status == healthy && age > duration("5m")', type: 'check' });
    expect(requests('PATCH', 'evidences')[0]?.body).toEqual({ definition_of_done: true, script: 'status == healthy && age > duration("5m")' });
    expect(requests('PATCH', 'evidences')[0]?.url.searchParams.get('id')).toBe(`in.(${EVIDENCE_ID})`);
  });

  it("offers 'Component is Health' for a component and refuses a script the server rejects, with its message", async () => {
    state.validate = () =>
      HttpResponse.json({ code: 'OD_DOD_SCRIPT', message: 'Invalid definition of done script: Unexpected token: EOF', details: null, hint: null }, { status: 400 });
    const user = renderDialog();
    await user.click(screen.getByRole('radio', { name: /payments-api/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('textbox', { name: /Script/ }), 'status ==');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid definition of done script: Unexpected token: EOF');
    expect(requests('PATCH', 'evidences')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Component is Health' }));
    expect(screen.getByRole('textbox', { name: /Script/ })).toHaveValue('status == healthy');
  });
});
