import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { RolesLoaded, waitForRoles } from '@/test/access-loaded';
import { renderRoutes } from '@/test/render';
import { readRequest, setupMswServer, TEST_PERSON, type RecordedRequest } from '@/test/msw';
import { OrganizationSwitcher } from './organization-switcher';

function session(method: string) {
  return { id: 's1', active: true, identity: { id: TEST_PERSON.id, traits: {} }, person: TEST_PERSON, roles: ['viewer'], authentication_methods: [{ method }] };
}

const switches: RecordedRequest[] = [];
const server = setupMswServer(
  http.get('/api/auth/organizations', () =>
    HttpResponse.json({ organizations: [{ id: 'acme', name: 'Acme Corp' }, { id: 'globex', name: 'Globex' }], current: { id: 'acme', name: 'Acme Corp' } }),
  ),
  http.post('/api/auth/organizations/switch', async ({ request }) => {
    switches.push(await readRequest(request));
    return HttpResponse.json({ organizations: [], current: { id: 'globex', name: 'Globex' } });
  }),
);

const routes = [
  { path: '/error', element: <OrganizationSwitcher /> },
  { path: '/organizations/orgs-switched', element: <p>Switched</p> },
];

describe('OrganizationSwitcher', () => {
  it('switches a hosted session to another of its organizations and continues through orgs-switched', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(session('oidc'))));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/error?error_code=BAD_SESSION');
    const trigger = await screen.findByRole('combobox', { name: 'Organization' });
    expect(trigger).toHaveTextContent('Acme Corp');
    await user.click(trigger);
    await user.click(await screen.findByRole('option', { name: 'Globex' }));
    expect(await screen.findByText('Switched')).toBeInTheDocument();
    expect(switches.map((request) => request.body)).toEqual([{ id: 'globex' }]);
    expect(router.state.location.search).toBe('');
  });

  it('shows nothing for a session of the built-in sign-in', async () => {
    server.use(http.get('/api/auth/sessions/whoami', () => HttpResponse.json(session('password'))));
    const { queryClient } = renderRoutes(
      [
        {
          path: '/error',
          element: (
            <>
              <RolesLoaded />
              <section aria-label="Switcher">
                <OrganizationSwitcher />
              </section>
            </>
          ),
        },
      ],
      '/error',
    );
    // The roles come with the session the switcher reads; a list of organizations it went on to ask for would follow.
    await waitForRoles();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.getByRole('region', { name: 'Switcher' })).toBeEmptyDOMElement();
  });
});
