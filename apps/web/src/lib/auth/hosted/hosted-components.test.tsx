import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithProviders } from '@/test/render';
import { setupMswServer, TEST_PERSON } from '@/test/msw';
import { HostedProfile } from './hosted-profile';
import { HostedSignIn } from './hosted-sign-in';
import { HostedSignUp } from './hosted-sign-up';

setupMswServer(
  http.get('/api/auth/mode', () => HttpResponse.json({ mode: 'hosted', provider_name: 'Acme SSO', registration_enabled: false })),
  http.get('/api/auth/sessions/whoami', () =>
    HttpResponse.json({
      id: 's1',
      active: true,
      identity: { id: TEST_PERSON.id, traits: { email: 'ada@example.test', name: { first: 'Ada', last: 'Lovelace' } } },
      person: TEST_PERSON,
      roles: ['viewer'],
      authentication_methods: [{ method: 'oidc' }],
    }),
  ),
);

describe('HostedSignIn', () => {
  it("links to the provider's sign-in with the page to come back to", async () => {
    renderWithProviders(<HostedSignIn />, { path: '/login?return_to=%2Fincidents%3Fstatus%3Dopen' });
    const link = await screen.findByRole('link', { name: 'Sign in with Acme SSO' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/login?return_to=%2Fincidents%3Fstatus%3Dopen');
  });

  it('drops a return_to on another origin', async () => {
    renderWithProviders(<HostedSignIn />, { path: '/login?return_to=https%3A%2F%2Fevil.example%2F' });
    expect(await screen.findByRole('link', { name: 'Sign in with Acme SSO' })).toHaveAttribute('href', '/api/auth/oidc/login');
  });

  it('explains why the last sign-in was refused', async () => {
    renderWithProviders(<HostedSignIn />, { path: '/login?oidc_error=identity_inactive' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your Opsdeck account is deactivated. Ask an administrator to activate it.');
  });
});

describe('HostedSignUp', () => {
  it("asks the provider for its sign-up page and comes back to redirectUrl", async () => {
    renderWithProviders(<HostedSignUp />, { path: '/registration?redirectUrl=%2Fhealth' });
    expect(await screen.findByRole('link', { name: 'Sign up with Acme SSO' })).toHaveAttribute('href', '/api/auth/oidc/login?signup=true&return_to=%2Fhealth');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?return_to=%2Fhealth');
  });
});

describe('HostedProfile', () => {
  it("shows the provider's profile read-only and says where it is changed", async () => {
    renderWithProviders(<HostedProfile />);
    expect(await screen.findByText('ada@example.test')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText(/managed at Acme SSO/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
