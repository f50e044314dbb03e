import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { makeComponent } from '../topology-test-support';
import { cardLayout } from '../utils/use-card-preferences';
import { TopologyCard } from './topology-card';

const ID = 'c0000000-0000-4000-8000-000000000001';

let flags: { name: string; value: string }[] = [];
let flagsAnswered = 0;

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/db/properties', () => {
    flagsAnswered += 1;
    return HttpResponse.json(flags);
  }),
);

function renderCard(logs: boolean) {
  flagsAnswered = 0;
  return renderWithProviders(
    <TopologyCard component={makeComponent({ id: ID, name: 'checkout', logs })} layout={cardLayout('large', null, 'detailed')} search={new URLSearchParams()} />,
  );
}

const card = () => screen.getByRole('article', { name: 'checkout' });

describe('TopologyCard', () => {
  it('links a component with logs to the logs page with its id as topologyId', async () => {
    flags = [{ name: 'logs.disable', value: 'false' }];
    renderCard(true);
    await waitFor(() => expect(flagsAnswered).toBeGreaterThan(0));
    expect(within(card()).getByRole('link', { name: 'Logs' })).toHaveAttribute('href', `/logs?topologyId=${ID}`);
  });

  it('hides the logs link while the logs area is switched off', async () => {
    flags = [{ name: 'logs.disable', value: 'true' }];
    renderCard(true);
    await waitFor(() => expect(flagsAnswered).toBeGreaterThan(0));
    await waitFor(() => expect(within(card()).queryByRole('link', { name: 'Logs' })).not.toBeInTheDocument());
  });

  it('offers no logs link for a component no log backend serves', async () => {
    flags = [];
    renderCard(false);
    await waitFor(() => expect(flagsAnswered).toBeGreaterThan(0));
    expect(within(card()).queryByRole('link', { name: 'Logs' })).not.toBeInTheDocument();
  });
});
