import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';
import type { TopologyResponse } from '../api/types';
import { makeComponent, makeResponse, makeRow } from '../topology-test-support';

const PARENT = 'b0000000-0000-4000-8000-000000000001';
const CHILD = 'b0000000-0000-4000-8000-000000000002';

let topologyRequests: URL[] = [];
let topology: TopologyResponse = makeResponse([]);

setupMswServer(
  whoamiHandler(() => ['viewer']),
  // Feature flags never answer: the standalone view must not wait for them (spec 001 §2.1).
  http.get('*/api/db/properties', async () => {
    await delay('infinite');
    return HttpResponse.json([]);
  }),
  http.get('*/api/topology', ({ request }) => {
    topologyRequests.push(new URL(request.url));
    return HttpResponse.json(topology);
  }),
);

afterEach(() => {
  topologyRequests = [];
  topology = makeResponse([]);
});

describe('Standalone topology view', () => {
  it("draws the component's children as large cards without the shell or waiting for feature flags", async () => {
    topology = makeResponse([
      makeComponent({
        id: PARENT,
        name: 'Payments',
        components: [makeComponent({ id: CHILD, name: 'api', parent_id: PARENT, status: 'healthy' }), makeComponent({ id: 'x', name: 'db', status: 'unhealthy' })],
      }),
    ]);
    renderApp(`/view/topology/${PARENT}`);
    const cards = await screen.findByRole('list', { name: 'Components' });
    expect(within(cards).getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['db', 'api']);
    expect(screen.getByRole('article', { name: 'api' })).toHaveStyle({ width: '356px' });
    expect(screen.queryByRole('link', { name: 'Skip to content' })).not.toBeInTheDocument();
    // Without the shell's breadcrumb the page still has its heading, hidden but for screen readers, inside #main.
    expect(screen.getByRole('heading', { level: 1, name: 'Payments' })).toHaveClass('sr-only');
    expect(document.getElementById('main')).toContainElement(screen.getByRole('heading', { level: 1 }));
    expect(topologyRequests.at(-1)?.searchParams.get('id')).toBe(PARENT);
  });

  it('draws only whole components as cards, leaving out a row sent in their place', async () => {
    topology = makeResponse([
      makeComponent({
        id: PARENT,
        name: 'Payments',
        components: [makeComponent({ id: CHILD, name: 'api', parent_id: PARENT }), makeRow({ id: 'stray', name: 'stray-row', parent_id: PARENT })],
      }),
    ]);
    renderApp(`/view/topology/${PARENT}`);
    const cards = await screen.findByRole('list', { name: 'Components' });
    expect(within(cards).getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['api']);
    expect(screen.queryByText('stray-row')).not.toBeInTheDocument();
  });

  it('sizes the cards by the size parameter and shows a leaf as its own card', async () => {
    topology = makeResponse([makeComponent({ id: CHILD, name: 'api', parent_id: PARENT, components: [] })]);
    renderApp(`/view/topology/${CHILD}?size=small`);
    expect(await screen.findByRole('article', { name: 'api' })).toHaveStyle({ width: '198px' });
  });

  it("says 'Component not found' when the API returns no component", async () => {
    renderApp(`/view/topology/${PARENT}`);
    expect(await screen.findByText('Component not found', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Component not found' })).toBeInTheDocument();
  });
});
