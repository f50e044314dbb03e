import '@/components/test-support/browser-polyfills';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Outlet } from 'react-router';
import { Cog } from 'lucide-react';
import { setupMswServer } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { CommandPaletteButton } from './command-palette-button';
import { CommandPaletteProvider } from './command-palette-provider';
import type { PaletteAction, PalettePage } from './palette-entries';

const INCIDENT = { kind: 'incident', id: 'i-1', title: 'Payments down', subtitle: 'INC-7 · open · high', url: '/incidents/i-1' };
const CHECK = { kind: 'check', id: 'c-1', title: 'payments-api', subtitle: 'http · unhealthy', url: '/health?checkId=c-1' };
const CONFIG = { kind: 'config', id: 'k-1', title: 'payments', subtitle: 'Kubernetes::Deployment · healthy', url: '/catalog/k-1' };

const searches: string[] = [];
const server = setupMswServer(
  http.get('/api/search', ({ request }) => {
    const q = new URL(request.url).searchParams.get('q') ?? '';
    searches.push(q);
    // Ranked across kinds by the server: the incident's title matches best, then the check, then the config item.
    return HttpResponse.json({ items: q.startsWith('pay') ? [INCIDENT, CHECK, CONFIG] : [] });
  }),
);

const PAGES: PalettePage[] = [
  { label: 'Incidents', path: '/incidents', group: 'Pages' },
  { label: 'Users', path: '/settings/users', group: 'Settings', icon: Cog },
];

function renderPalette(actions: PaletteAction[] = []) {
  searches.length = 0;
  return renderRoutes(
    [
      {
        element: (
          <CommandPaletteProvider pages={PAGES} actions={actions}>
            <CommandPaletteButton />
            <label>
              Notes
              <input />
            </label>
            <Outlet />
          </CommandPaletteProvider>
        ),
        children: [
          { path: '/', element: <p>Home</p> },
          { path: '/incidents/:id', element: <h1>Incident page</h1> },
          { path: '/health', element: <h1>Health page</h1> },
          { path: '/settings/users', element: <h1>Users page</h1> },
        ],
      },
    ],
    '/',
  );
}

function palette() {
  return screen.getByRole('dialog', { name: 'Command palette' });
}

describe('command palette', () => {
  it('opens with Ctrl+K anywhere, also while typing in a field, and closes with it again', async () => {
    const user = userEvent.setup();
    renderPalette();
    await user.click(screen.getByRole('textbox', { name: 'Notes' }));
    await user.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Command palette' })).toBeInTheDocument();
    expect(screen.getByRole('combobox')).toHaveFocus();
    await user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.keyboard('{Meta>}k{/Meta}');
    expect(await screen.findByRole('dialog', { name: 'Command palette' })).toBeInTheDocument();
  });

  it('lists the actions and the pages before anything is typed, without asking the server', async () => {
    const user = userEvent.setup();
    renderPalette();
    await user.click(screen.getByRole('button', { name: /^Search…/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
    expect(within(dialog).getByRole('option', { name: /switch to (dark|light) theme/i })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: /Users/ })).toBeInTheDocument();
    expect(within(dialog).getByText('Settings')).toBeInTheDocument();
    expect(searches).toEqual([]);
  });

  it('asks the server once when typing pauses, groups the answers per kind in ranked order, and Enter opens the best one', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('paym');
    const incident = await within(palette()).findByRole('option', { name: /Payments down/ });
    expect(searches).toEqual(['paym']);
    const headings = [...palette().querySelectorAll('[cmdk-group-heading]')].map((heading) => heading.textContent);
    expect(headings.slice(0, 3)).toEqual(['Incidents', 'Health checks', 'Catalog']);
    expect(incident).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/incidents/i-1'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Incident page' })).toBeInTheDocument();
  });

  it('moves with the arrow keys: Down then Enter opens the check on the health page', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('payments');
    await within(palette()).findByRole('option', { name: /payments-api/ });
    await user.keyboard('{ArrowDown}');
    expect(within(palette()).getByRole('option', { name: /payments-api/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/health?checkId=c-1'));
  });

  it('finds settings pages by name and opens them', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('users');
    const option = await within(palette()).findByRole('option', { name: /Users/ });
    expect(within(palette()).queryByRole('option', { name: /Incidents/ })).not.toBeInTheDocument();
    await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/users'));
  });

  it('names the top-bar button by the words it shows, so a voice command saying them finds it', () => {
    renderPalette();
    const button = screen.getByRole('button', { name: /^Search…/ });
    expect(button).toHaveAccessibleName(button.textContent ?? '');
  });

  it('closes with Escape and gives the focus back to what opened it', async () => {
    const user = userEvent.setup();
    renderPalette();
    const button = screen.getByRole('button', { name: /^Search…/ });
    await user.click(button);
    await screen.findByRole('dialog', { name: 'Command palette' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });

  it('says it is searching while the server answers, and when nothing matches', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get('/api/search', async ({ request }) => {
        searches.push(new URL(request.url).searchParams.get('q') ?? '');
        await answered;
        return HttpResponse.json({ items: [] });
      }),
    );
    const user = userEvent.setup();
    renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('zzz');
    // Past the typing pause: the question is with the server.
    await waitFor(() => expect(searches).toEqual(['zzz']));
    expect(await within(palette()).findByText('Searching…')).toBeInTheDocument();
    answer();
    expect(await within(palette()).findByText('No results for “zzz”.')).toBeInTheDocument();
  });

  it('shows the server error in place and keeps the pages that match', async () => {
    server.use(http.get('/api/search', () => HttpResponse.json({ code: 'OD500', message: 'Internal server error', details: null, hint: null }, { status: 500 })));
    const user = userEvent.setup();
    renderPalette();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('user');
    expect(await within(palette()).findByRole('alert')).toHaveTextContent('Search failed: Internal server error');
    expect(within(palette()).getByRole('option', { name: /Users/ })).toBeInTheDocument();
  });

  it('runs an action after closing, and toggles the theme', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    renderPalette([{ id: 'create-incident', label: 'Create incident', onSelect }]);
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('create');
    await within(palette()).findByRole('option', { name: /Create incident/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSelect).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const dark = document.documentElement.classList.contains('dark');
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('theme');
    await within(palette()).findByRole('option', { name: /switch to (dark|light) theme/i });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(!dark));
  });
});
