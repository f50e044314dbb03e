import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type { ApiToken } from '../api/get-api-tokens';
import { ApiTokensCard, NO_TOKENS_MESSAGE } from './api-tokens-card';
import { tokenRoleChoices } from './create-api-token-dialog';

const TOKEN_VALUE = `odt_${'x'.repeat(43)}`;
let roles: string[] = ['editor'];
let tokens: ApiToken[] = [];
let created: unknown[] = [];
let revoked: string[] = [];

setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/auth/api-tokens', () => HttpResponse.json({ items: tokens })),
  http.post('*/api/auth/api-tokens', async ({ request }) => {
    const body = (await request.json()) as { name: string; role: ApiToken['role']; expiresInDays: number };
    created.push(body);
    const token: ApiToken = {
      id: `t${created.length}`,
      name: body.name,
      role: body.role,
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + body.expiresInDays * 86_400_000).toISOString(),
      last_used_at: null,
    };
    tokens = [token, ...tokens];
    return HttpResponse.json({ ...token, token: TOKEN_VALUE }, { status: 201 });
  }),
  http.delete('*/api/auth/api-tokens/:id', ({ params }) => {
    revoked.push(String(params.id));
    tokens = tokens.filter((token) => token.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
);

function reset(initial: ApiToken[] = [], ownRoles: string[] = ['editor']) {
  tokens = initial;
  roles = ownRoles;
  created = [];
  revoked = [];
}

describe('API Tokens card', () => {
  it('offers only roles no higher than one’s own', () => {
    expect(tokenRoleChoices(['editor'])).toEqual(['editor', 'commander', 'responder', 'viewer']);
    expect(tokenRoleChoices(['viewer', 'responder'])).toEqual(['responder', 'viewer']);
    expect(tokenRoleChoices(['admin'])).toEqual(['admin', 'editor', 'commander', 'responder', 'viewer']);
  });

  it('creates a token, shows it once with a copy button, then lists it without it', async () => {
    reset();
    const user = userEvent.setup();
    renderWithProviders(<ApiTokensCard />);
    expect(await screen.findByText(NO_TOKENS_MESSAGE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(within(dialog).getByText('This field is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Name/), 'deploy script');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'API token created' });
    expect(within(shown).getByTestId('api-token-value')).toHaveTextContent(TOKEN_VALUE);
    expect(within(shown).getByRole('button', { name: 'Copy API token' })).toBeInTheDocument();
    expect(created).toEqual([{ name: 'deploy script', role: 'viewer', expiresInDays: 30 }]);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));

    const list = await screen.findByRole('list', { name: 'API tokens' });
    expect(within(list).getByText('deploy script')).toBeInTheDocument();
    expect(within(list).getByText('Never')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(TOKEN_VALUE);
  });

  it('revokes a token after confirmation', async () => {
    reset([
      { id: 'old', name: 'ci', role: 'viewer', created_at: '2020-01-01T00:00:00Z', expires_at: '2020-02-01T00:00:00Z', last_used_at: '2020-01-15T00:00:00Z' },
    ]);
    const user = userEvent.setup();
    renderWithProviders(<ApiTokensCard />, { toaster: true });
    const list = await screen.findByRole('list', { name: 'API tokens' });
    expect(within(list).getByText('Expired')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Revoke ci' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(revoked).toEqual(['old']));
    expect(await screen.findByText(NO_TOKENS_MESSAGE)).toBeInTheDocument();
  });
});
