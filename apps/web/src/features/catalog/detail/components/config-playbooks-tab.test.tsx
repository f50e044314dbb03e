import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PlaybooksMenuProvider, type PlaybooksMenuProps } from '@/lib/playbook-run/playbook-run-slot';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { ConfigPlaybooksTab } from './config-playbooks-tab';

const CONFIG_ID = '40000000-0000-4000-8000-000000000001';
const RUN_ID = '70000000-0000-4000-8000-000000000001';

let runRequests: URL[] = [];

setupMswServer(
  whoamiHandler(() => ['editor']),
  http.get('*/api/db/playbook_runs', ({ request }) => {
    runRequests.push(new URL(request.url));
    return HttpResponse.json(
      [
        {
          id: RUN_ID,
          status: 'failed',
          start_time: '2026-11-01T10:00:00Z',
          end_time: '2026-11-01T10:01:05Z',
          scheduled_time: '2026-11-01T10:00:00Z',
          created_at: '2026-11-01T10:00:00Z',
          created_by: null,
          playbook: { id: '60000000-0000-4000-8000-000000000001', name: 'restart-pod', title: 'Restart pod' },
        },
      ],
      { status: 206, headers: { 'Content-Range': '0-0/1' } },
    );
  }),
);

afterEach(() => {
  runRequests = [];
});

describe('Config Playbooks tab', () => {
  it('offers a Run button for the item above its runs, 200 to a page, each linking to its run with a status badge', async () => {
    const menus: PlaybooksMenuProps[] = [];
    function Menu(props: PlaybooksMenuProps) {
      menus.push(props);
      return <button type="button">Run</button>;
    }
    renderWithProviders(
      <PlaybooksMenuProvider component={Menu}>
        <ConfigPlaybooksTab configId={CONFIG_ID} />
      </PlaybooksMenuProvider>,
    );
    expect(await screen.findByRole('button', { name: 'Run' })).toBeInTheDocument();
    expect(menus.at(-1)).toEqual({ variant: 'button', target: { type: 'config', id: CONFIG_ID } });
    // The playbook's title, as its card, its menu and the runs list show it, not its name.
    const link = await screen.findByRole('link', { name: 'Restart pod' });
    expect(link).toHaveAttribute('href', `/playbooks/runs/${RUN_ID}`);
    const row = link.closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('failed')).toHaveClass('rounded-full');
    await waitFor(() => expect(runRequests.at(-1)?.searchParams.get('limit')).toBe('200'));
    expect(runRequests.at(-1)?.searchParams.get('config_id')).toBe(`eq.${CONFIG_ID}`);
    expect(runRequests.at(-1)?.searchParams.get('order')).toBe('created_at.desc');
  });

  it('shows the runs without a Run button when nothing fills the slot', async () => {
    renderWithProviders(<ConfigPlaybooksTab configId={CONFIG_ID} />);
    expect(await screen.findByRole('link', { name: 'Restart pod' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run' })).not.toBeInTheDocument();
  });
});
