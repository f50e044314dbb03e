import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { SESSION_FRESH_MS, sessionKeys, useSession, type Session } from './session';

const SESSION: Session = {
  id: 's1',
  active: true,
  identity: { id: 'i1', traits: {} },
  person: { id: 'p1', name: 'Ada Lovelace', email: null, avatar: null },
  roles: ['editor'],
};

let whoamiCalls = 0;
setupMswServer(
  http.get('*/api/auth/sessions/whoami', () => {
    whoamiCalls += 1;
    return HttpResponse.json({ ...SESSION, roles: whoamiCalls === 1 ? ['editor'] : ['viewer'] });
  }),
);

afterEach(() => {
  whoamiCalls = 0;
});

function Roles({ label }: { label: string }) {
  const session = useSession();
  return <p>{`${label}: ${session.data?.roles.join(',') ?? 'pending'}`}</p>;
}

describe('useSession', () => {
  it('lets every component of a page share one whoami request', async () => {
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <Roles label="shell" />
        <Roles label="page" />
        <Roles label="button" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('shell: editor')).toBeInTheDocument();
    expect(screen.getByText('button: editor')).toBeInTheDocument();
    expect(whoamiCalls).toBe(1);
  });

  it('asks the server again when a component mounts after the answer has aged', async () => {
    const client = new QueryClient();
    client.setQueryData(sessionKeys.whoami(), SESSION, { updatedAt: Date.now() - SESSION_FRESH_MS - 1 });
    whoamiCalls = 1;
    render(
      <QueryClientProvider client={client}>
        <Roles label="page" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('page: viewer')).toBeInTheDocument();
    expect(whoamiCalls).toBe(2);
  });
});
