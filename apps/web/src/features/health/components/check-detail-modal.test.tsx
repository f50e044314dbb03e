import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { RolesLoaded, waitForRoles } from '@/test/access-loaded';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { IncidentLinkProvider, type IncidentLinkProps, type LinkableEvidence } from '@/lib/incident-link/incident-link-slot';
import { PlaybooksMenuProvider, type PlaybooksMenuProps } from '@/lib/playbook-run/playbook-run-slot';
import { healthKeys } from '../api/keys';
import type { CheckStatusEntry } from '../api/types';
import { currentSearch, makeCheck, makeDetail, renderAtHealth } from '../health-test-support';
import { DURATION_FILTER_ERROR } from '../utils/duration-filter';
import { CheckDetailModal } from './check-detail-modal';

const check = makeCheck({
  id: 'b0000000-0000-4000-8000-000000000001',
  name: 'backup/nightly-job',
  canary_id: 'c0000000-0000-4000-8000-000000000009',
  status: 'unhealthy',
  severity: 'high',
  uptime: { passed: 75, failed: 25 },
  latency: { p95: 950, p97: 1200, p99: 2500 },
  labels: { team: 'data' },
  last_runtime: new Date(Date.now() - 2.5 * 3_600_000).toISOString(),
});

function statuses(count: number, offset = 0): CheckStatusEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    check_id: check.id,
    time: new Date(Date.UTC(2024, 4, 1, 10, 0) - (index + offset) * 60_000).toISOString(),
    status: index % 2 === 0,
    duration: 100 + index,
    message: index % 2 === 0 ? 'ok' : '',
    error: index % 2 === 0 ? null : 'no space left on device',
  }));
}

/** Longer than several of the polls the history makes every 2 s while a run is awaited. */
const PAST_SEVERAL_POLLS_MS = 10_000;

let roles = ['admin'];
/** A run recorded by the server after Run Now, newest first in the history once it exists. */
let recordedRun: CheckStatusEntry | null = null;
let historyRequests: { url: URL; prefer: string | null }[] = [];
let detailRequests: URL[] = [];
let runRequests: string[] = [];

const server = setupMswServer(
  whoamiHandler(() => roles),
  http.get('*/api/db/properties', () => HttpResponse.json([])),
  http.get('*/api/canary/api/details', ({ request }) => {
    detailRequests.push(new URL(request.url));
    return HttpResponse.json(
      makeDetail(check, {
        relationships: {
          configs: [{ id: 'd0000000-0000-4000-8000-000000000001', name: 'backup-volume', type: 'Kubernetes::PersistentVolume' }],
          components: [{ id: 'e0000000-0000-4000-8000-000000000001', name: 'storage', icon: null }],
        },
      }),
    );
  }),
  http.get('*/api/db/check_statuses', ({ request }) => {
    const url = new URL(request.url);
    historyRequests.push({ url, prefer: request.headers.get('Prefer') });
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const rows = [...(recordedRun !== null && offset === 0 ? [recordedRun] : []), ...statuses(Math.min(50, 120 - offset), offset)];
    return HttpResponse.json(rows, { status: 206, headers: { 'Content-Range': `${offset}-${offset + rows.length - 1}/120` } });
  }),
  http.post('*/api/canary/run/check/:id', ({ params }) => {
    runRequests.push(String(params.id));
    recordedRun = { check_id: check.id, time: new Date(Date.now() + 500).toISOString(), status: true, duration: 42, message: 'manual run', error: null };
    return HttpResponse.json({ message: 'You have successfully initiated the check run.', id: params.id }, { status: 202 });
  }),
);

afterEach(() => {
  vi.useRealTimers();
  roles = ['admin'];
  historyRequests = [];
  detailRequests = [];
  runRequests = [];
  recordedRun = null;
});

const lastHistory = (): URLSearchParams => historyRequests.at(-1)?.url.searchParams ?? new URLSearchParams();

/** Fills the footer's Link to Incident slot, which every role gets, so a test can tell the footer has been drawn. */
function FooterDrawn() {
  return <p>Footer drawn</p>;
}

/**
 * The footer's parts depend on the check's detail and on the roles; once the footer is drawn and the roles have
 * loaded, what it leaves out stays out.
 */
async function waitForFooterAndRoles(): Promise<void> {
  await screen.findByText('Footer drawn');
  await waitForRoles();
}

/** `fromDashboard: false` opens the modal as a link would, without the summary row. */
function renderModal({ fromDashboard = true } = {}) {
  return renderAtHealth(<CheckDetailModal checkId={check.id} initialCheck={fromDashboard ? check : undefined} onClose={() => {}} />);
}

describe('Check detail modal', () => {
  it('shows the labels and the stat tiles of the check', async () => {
    renderModal();
    const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    expect(within(dialog).getByRole('list', { name: 'Labels' })).toHaveTextContent('team: data');
    const uptime = await within(dialog).findByRole('group', { name: 'Uptime' });
    expect(uptime).toHaveTextContent('75%');
    expect(uptime).toHaveTextContent('75 passed');
    expect(uptime).toHaveTextContent('25 failed');
    expect(within(dialog).getByRole('group', { name: 'Latency 95%' })).toHaveTextContent('950ms');
    expect(within(dialog).getByRole('group', { name: 'Latency 97%' })).toHaveTextContent('1.2s');
    expect(within(dialog).getByRole('group', { name: 'Latency 99%' })).toHaveTextContent('2.5s');
    expect(within(dialog).getByRole('group', { name: 'Severity' })).toHaveTextContent('high');
    expect(within(dialog).getByRole('group', { name: 'Last Run' })).toHaveTextContent('2h ago');
    expect(within(dialog).getByRole('group', { name: 'Transitioned' })).toHaveTextContent('2h ago');
    expect(within(dialog).getByRole('group', { name: 'Next Run' })).toHaveTextContent(/in \d+s/);
  });

  it('shows in the Health Overview the runs of the Uptime tile, bucket by bucket in the tooltips', async () => {
    const user = userEvent.setup();
    // jsdom lays nothing out: the chart gets the size a browser would give it, so it draws its buckets.
    const layout = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ width: 800, height: 176 }));
    try {
      renderModal();
      const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
      const uptime = await within(dialog).findByRole('group', { name: 'Uptime' });
      const chart = within(dialog).getByRole('region', { name: 'Health Overview' });
      expect(uptime).toHaveTextContent('75 passed 25 failed');
      expect(within(chart).getByTestId('chart-totals')).toHaveTextContent('75 passed · 25 failed');

      // The keyboard walks the buckets as the pointer would; each tooltip says its bucket's runs.
      // The charting library arrives in a chunk of its own after the modal.
      const surface = await waitFor(() => {
        const drawn = chart.querySelector<SVGElement>('.recharts-wrapper > svg.recharts-surface');
        if (drawn === null) throw new Error('the chart was not drawn');
        return drawn;
      });
      surface.focus();
      const seen = new Map<string, { passed: number; failed: number }>();
      for (let step = 0; step < 2; step += 1) {
        const tooltip = await within(chart).findByRole('status', { name: 'Bucket details' });
        const runs = (label: string): number => Number.parseInt(within(tooltip).getByText(new RegExp(`^\\d+ ${label}$`)).textContent ?? '', 10);
        seen.set(tooltip.textContent ?? '', { passed: runs('passed'), failed: runs('failed') });
        await user.keyboard('{ArrowRight}');
      }
      const buckets = [...seen.values()];
      expect(buckets).toHaveLength(2);
      expect(buckets.reduce((sum, bucket) => sum + bucket.passed, 0)).toBe(75);
      expect(buckets.reduce((sum, bucket) => sum + bucket.failed, 0)).toBe(25);
    } finally {
      layout.mockRestore();
    }
  });

  it("shows the check's health over the modal's range, orange for a passing check that failed in it", async () => {
    server.use(http.get('*/api/canary/api/details', () => HttpResponse.json(makeDetail({ ...check, status: 'healthy', health: 'warning' }))));
    renderModal({ fromDashboard: false });
    const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    await waitFor(() => expect(within(dialog).getByTestId('check-health').querySelector('[data-color]')).toHaveAttribute('data-color', 'orange'));
  });

  it('defaults the time range from the age of the last run', async () => {
    renderModal();
    await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    // Two and a half hours ago fits the 3h bucket.
    await waitFor(() => expect(detailRequests.at(-1)?.searchParams.get('start')).toBe('3h'));
    expect(screen.getByRole('button', { name: 'Time range: Last 3 hours' })).toBeInTheDocument();
  });

  it('learns the last run from the detail when opened from a link, then follows it', async () => {
    renderModal({ fromDashboard: false });
    await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    await waitFor(() => expect(detailRequests.at(-1)?.searchParams.get('start')).toBe('3h'));
    expect(detailRequests.map((url) => url.searchParams.get('start'))).toContain('1h');
  });

  it('asks for the history as spec 002 lays it out: newest first, counted, 50 a page', async () => {
    const user = userEvent.setup();
    renderModal();
    const table = await screen.findByRole('table', { name: 'Check history' });
    await within(table).findAllByText('no space left on device');
    const first = lastHistory();
    expect(first.get('check_id')).toBe(`eq.${check.id}`);
    expect(first.get('time')).toMatch(/^gt\./);
    expect(first.get('order')).toBe('time.desc');
    expect(first.get('limit')).toBe('50');
    expect(first.get('offset')).toBe('0');
    expect(historyRequests.at(-1)?.prefer).toContain('count=exact');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastHistory().get('offset')).toBe('50'));
    expect(screen.getByText('of 3')).toBeInTheDocument();
  });

  it('filters the history by status', async () => {
    const user = userEvent.setup();
    renderModal();
    await screen.findByRole('table', { name: 'Check history' });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Unhealthy' }));
    await waitFor(() => expect(lastHistory().get('status')).toBe('eq.false'));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Healthy' }));
    await waitFor(() => expect(lastHistory().get('status')).toBe('eq.true'));
  });

  it('filters the history by a duration in seconds or milliseconds', async () => {
    const user = userEvent.setup();
    renderModal();
    await screen.findByRole('table', { name: 'Check history' });
    const duration = screen.getByRole('combobox', { name: 'Duration' });
    await user.clear(duration);
    await user.type(duration, '1.5s{Enter}');
    await waitFor(() => expect(lastHistory().get('duration')).toBe('gte.1500'));
    await user.clear(duration);
    await user.type(duration, '250ms{Enter}');
    await waitFor(() => expect(lastHistory().get('duration')).toBe('gte.250'));
    await user.clear(duration);
    await user.type(duration, 'All{Enter}');
    expect(duration).toHaveValue('All');
    expect(duration).not.toHaveAttribute('aria-invalid');
  });

  it("refuses any other duration with 'duration is allowed only in milli seconds & seconds'", async () => {
    const user = userEvent.setup();
    renderModal();
    await screen.findByRole('table', { name: 'Check history' });
    const before = historyRequests.length;
    const duration = screen.getByRole('combobox', { name: 'Duration' });
    await user.clear(duration);
    await user.type(duration, '2m{Enter}');
    expect(await screen.findAllByText(DURATION_FILTER_ERROR)).not.toHaveLength(0);
    expect(duration).toHaveAttribute('aria-invalid', 'true');
    expect(historyRequests).toHaveLength(before);
  });

  it('shows the spec as YAML and the relationships with a count and links', async () => {
    const user = userEvent.setup();
    renderModal();
    const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    await user.click(within(dialog).getByRole('tab', { name: /Spec/ }));
    expect(await within(dialog).findByText(/url: http:\/\/example/)).toBeInTheDocument();

    const relationshipsTab = within(dialog).getByRole('tab', { name: /Relationships/ });
    expect(within(relationshipsTab).getByText('2')).toBeInTheDocument();
    await user.click(relationshipsTab);
    const table = await within(dialog).findByRole('table', { name: 'Relationships' });
    expect(within(table).getByRole('row', { name: /backup-volume/ })).toHaveTextContent('Config');
    await user.click(within(table).getByText('storage'));
    expect(screen.getByTestId('location')).toHaveTextContent('/topology/e0000000-0000-4000-8000-000000000001');
  });

  it('offers an Artifacts tab only for a check whose spec keeps files, listing its newest run\'s as downloads', async () => {
    const user = userEvent.setup();
    const artifact = { id: 'f0000000-0000-4000-8000-000000000001', path: '/tmp/out/dump.txt', filename: 'dump.txt', size: 12, checksum: 'ab', created_at: '2024-05-01T10:00:00Z' };
    const queryClient = renderModal();
    const plain = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    // The relationships' count comes with the detail: the spec is known by then.
    await within(await within(plain).findByRole('tab', { name: /Relationships/ })).findByText('2');
    expect(within(plain).queryByRole('tab', { name: 'Artifacts' })).not.toBeInTheDocument();

    server.use(
      http.get('*/api/canary/api/details', () => HttpResponse.json({ ...makeDetail(check), check: { ...makeDetail(check).check, spec: { script: 'true', artifacts: [{ path: '/tmp/out/*' }] } } })),
      http.get('*/api/canary/checks/:id/artifacts', () => HttpResponse.json([artifact])),
    );
    await act(async () => {
      await queryClient.invalidateQueries();
    });
    await user.click(await within(plain).findByRole('tab', { name: 'Artifacts' }));
    const link = await within(plain).findByRole('link', { name: 'dump.txt' });
    expect(link).toHaveAttribute('href', `/api/canary/artifacts/${artifact.id}`);

    server.use(
      http.get('*/api/canary/api/details', () =>
        HttpResponse.json({ ...makeDetail(check), check: { ...makeDetail(check).check, agent_id: 'a0000000-0000-4000-8000-000000000001', agent_name: 'edge-1', spec: { script: 'true', artifacts: [{ path: '/tmp/out/*' }] } } }),
      ),
    );
    await act(async () => {
      await queryClient.invalidateQueries();
    });
    expect(await within(plain).findByText(/runs on agent edge-1, which keeps its files there/)).toBeInTheDocument();
  });

  it('links Edit to the canary settings page', async () => {
    renderModal();
    const edit = await screen.findByRole('link', { name: 'Edit' });
    expect(edit).toHaveAttribute('href', '/settings/canaries/c0000000-0000-4000-8000-000000000009');
  });

  it.each(['admin', 'editor', 'responder', 'commander'])('lets the %s role run the check now', async (role) => {
    roles = [role];
    const user = userEvent.setup();
    renderModal();
    await user.click(await screen.findByRole('button', { name: 'Run Now' }));
    // Toasts of earlier tests may still be on their way out.
    expect(await screen.findAllByText('You have successfully initiated the check run.')).not.toHaveLength(0);
    expect(runRequests).toEqual([check.id]);
  });

  it('polls the history after Run Now until the new run shows up, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const queryClient = renderModal();
    const table = await screen.findByRole('table', { name: 'Check history' });
    await within(table).findAllByText('no space left on device');
    await user.click(screen.getByRole('button', { name: 'Run Now' }));
    expect(await within(table).findByText('manual run')).toBeInTheDocument();
    // The run found, the detail and the dashboard are asked again; once they have answered nothing should be asking.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const afterRun = historyRequests.length;
    // Several of the history's 2-second polls; a poll would start fetching inside the timer that runs it. Only the
    // history is asked about: with time also passing for real, a loaded machine can make another query's own refresh
    // fall due inside the same window.
    act(() => vi.advanceTimersByTime(PAST_SEVERAL_POLLS_MS));
    expect(queryClient.isFetching({ queryKey: [...healthKeys.check(check.id), 'history'] })).toBe(0);
    expect(historyRequests).toHaveLength(afterRun);
  });

  it('does not offer Run Now to a viewer', async () => {
    roles = ['viewer'];
    renderAtHealth(
      <IncidentLinkProvider component={FooterDrawn}>
        <RolesLoaded />
        <CheckDetailModal checkId={check.id} initialCheck={check} onClose={() => {}} />
      </IncidentLinkProvider>,
    );
    await screen.findByRole('group', { name: 'Uptime' });
    await waitForFooterAndRoles();
    expect(screen.queryByRole('button', { name: 'Run Now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('shows what the Link to Incident slot holds, handing it the check as evidence', async () => {
    const linked: LinkableEvidence[] = [];
    function LinkButton({ evidence }: IncidentLinkProps) {
      linked.push(evidence);
      return <button type="button">Attach as Evidence</button>;
    }
    renderAtHealth(
      <IncidentLinkProvider component={LinkButton}>
        <CheckDetailModal checkId={check.id} initialCheck={check} onClose={() => {}} />
      </IncidentLinkProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    expect(await within(dialog).findByRole('button', { name: 'Attach as Evidence' })).toBeInTheDocument();
    expect(linked.at(-1)).toEqual({ type: 'check', check_id: check.id, description: 'backup/nightly-job' });
    expect(currentSearch(screen.getByTestId('location')).toString()).toBe('');
  });

  it('shows no Link to Incident button when nothing fills the slot', async () => {
    renderModal();
    await screen.findByRole('group', { name: 'Uptime' });
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).not.toBeInTheDocument();
  });

  it.each([
    ['editor', true],
    ['admin', true],
    ['responder', false],
    ['viewer', false],
  ])('offers the %s role the Playbooks menu of the check in the footer: %s', async (role, shown) => {
    roles = [role];
    const targets: PlaybooksMenuProps[] = [];
    function Menu(props: PlaybooksMenuProps) {
      targets.push(props);
      return <button type="button">Playbooks</button>;
    }
    renderAtHealth(
      <PlaybooksMenuProvider component={Menu}>
        <IncidentLinkProvider component={FooterDrawn}>
          <RolesLoaded />
          <CheckDetailModal checkId={check.id} initialCheck={check} onClose={() => {}} />
        </IncidentLinkProvider>
      </PlaybooksMenuProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'backup/nightly-job' });
    await within(dialog).findByRole('group', { name: 'Uptime' });
    if (shown) {
      expect(await within(dialog).findByRole('button', { name: 'Playbooks' })).toBeInTheDocument();
      expect(targets.at(-1)).toEqual({ target: { type: 'check', id: check.id } });
    } else {
      await waitForFooterAndRoles();
      expect(within(dialog).queryByRole('button', { name: 'Playbooks' })).not.toBeInTheDocument();
    }
  });
});
