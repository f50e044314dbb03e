import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { IncidentLinkSlot } from '@/lib/incident-link/incident-link-slot';
import { RolesAndFlagsLoaded, waitForRolesAndFlags } from '@/test/access-loaded';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { IncidentLinkComposition } from './incident-link';

let roles: string[] = ['responder'];

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
);

afterEach(() => {
  roles = ['responder'];
});

const slot = <IncidentLinkSlot evidence={{ type: 'check', check_id: '77777777-7777-4777-8777-777777777777', description: 'api' }} />;

describe('Link to Incident composed into other areas', () => {
  it("fills an area's slot with the incidents feature's Attach as Evidence button", async () => {
    renderWithProviders(<IncidentLinkComposition>{slot}</IncidentLinkComposition>);
    expect(await screen.findByRole('button', { name: 'Attach as Evidence' })).toBeInTheDocument();
  });

  it('keeps the button from users who may not write incidents', async () => {
    roles = ['viewer'];
    renderWithProviders(
      <IncidentLinkComposition>
        <RolesAndFlagsLoaded />
        {slot}
      </IncidentLinkComposition>,
    );
    await waitForRolesAndFlags();
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });
});
