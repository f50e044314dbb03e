import '@/components/test-support/browser-polyfills';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { readRequest, setupMswServer, whoamiHandler, type RecordedRequest } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import { COMPONENT_ID, TOPOLOGY_ID, topologyComponent } from './side-panel/panel-test-support';
import { SnapshotDialog } from './snapshot-dialog';

let snapshots: RecordedRequest[] = [];
let disposition: string | null = 'attachment; filename="Shop-snapshot.zip"';
let saved: string[] = [];
let topologyLookups: RecordedRequest[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/snapshot/topology/:id', async ({ request }) => {
    snapshots.push(await readRequest(request));
    const headers: Record<string, string> = { 'content-type': 'application/zip' };
    if (disposition !== null) headers['content-disposition'] = disposition;
    return new HttpResponse(new Uint8Array([80, 75, 5, 6]), { headers });
  }),
  http.get('*/api/db/topologies', async ({ request }) => {
    topologyLookups.push(await readRequest(request));
    return HttpResponse.json([{ name: 'Shop' }]);
  }),
);

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:snapshot');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  snapshots = [];
  saved = [];
  topologyLookups = [];
  disposition = 'attachment; filename="Shop-snapshot.zip"';
});

function renderDialog(onOpenChange: (open: boolean) => void = () => undefined, path?: string) {
  const component = topologyComponent(path === undefined ? {} : { path, parent_id: null, name: 'Shop' });
  return renderWithProviders(<SnapshotDialog component={component} open onOpenChange={onOpenChange} />, { toaster: true });
}

describe('Snapshot dialog', () => {
  it('starts on the first time range with related components off, and downloads under the name the server gives', async () => {
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderDialog(onOpenChange);
    await screen.findByRole('dialog', { name: 'Snapshot' });
    expect(screen.getByRole('combobox', { name: 'Time range' })).toHaveTextContent('Last 1 hour');
    expect(screen.getByRole('switch', { name: 'Include related components' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['Shop-snapshot.zip']));
    expect(snapshots[0]?.url.pathname).toBe(`/api/snapshot/topology/${COMPONENT_ID}`);
    expect(Object.fromEntries(snapshots[0]?.url.searchParams ?? [])).toEqual({ start: '1h', related: 'false' });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });

  it('sends the chosen range and related components', async () => {
    const user = userEvent.setup({ delay: null });
    renderDialog();
    await user.click(await screen.findByRole('combobox', { name: 'Time range' }));
    await user.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await user.click(screen.getByRole('switch', { name: 'Include related components' }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(snapshots).toHaveLength(1));
    expect(Object.fromEntries(snapshots[0]?.url.searchParams ?? [])).toEqual({ start: '7d', related: 'true' });
  });

  it("names the file '{topology name}-snapshot.zip' when the server names none", async () => {
    disposition = null;
    const user = userEvent.setup({ delay: null });
    renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['Shop-snapshot.zip']));
    expect(Object.fromEntries(topologyLookups[0]?.url.searchParams ?? [])).toMatchObject({ id: `eq.${TOPOLOGY_ID}`, select: 'name' });
  });

  it("takes a root component's own name as the topology name without asking for it", async () => {
    disposition = null;
    const user = userEvent.setup({ delay: null });
    renderDialog(undefined, '');
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['Shop-snapshot.zip']));
    expect(topologyLookups).toHaveLength(0);
  });

  it("toasts 'Error downloading file' on a failure and stays open", async () => {
    server.use(http.get('*/api/snapshot/topology/:id', () => HttpResponse.json({ code: 'OD500', message: 'boom', details: null, hint: null }, { status: 500 })));
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderDialog(onOpenChange);
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Error downloading file')).toBeInTheDocument();
    expect(saved).toEqual([]);
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('shows progress and disables its controls while the zip downloads', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/snapshot/topology/:id', async () => {
        await held;
        return new HttpResponse(new Uint8Array([80, 75, 5, 6]), { headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="Shop-snapshot.zip"' } });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByRole('progressbar', { name: 'Download progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Time range' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Include related components' })).toBeDisabled();
    release();
    await waitFor(() => expect(saved).toEqual(['Shop-snapshot.zip']));
  });
});
