import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupMswServer } from '@/test/msw';
import { renderWithProviders } from '@/test/render';
import type * as DownloadFileModule from '@/lib/download-file';
import { KubeconfigDialog } from './kubeconfig-dialog';

const downloads = vi.hoisted(() => ({ saved: [] as { name: string; text: Promise<string> }[] }));
vi.mock('@/lib/download-file', async (importOriginal) => ({
  ...(await importOriginal<typeof DownloadFileModule>()),
  downloadFile: (blob: Blob, name: string) => downloads.saved.push({ name, text: blob.text() }),
}));

const server = setupMswServer();

describe('KubeconfigDialog', () => {
  afterEach(() => {
    downloads.saved.length = 0;
  });

  it('mints the kubeconfig with a POST marked X-Requested-With and saves the answer as the file the server names', async () => {
    const requests: { method: string; marker: string | null }[] = [];
    server.use(
      http.all('*/api/kubeconfig', ({ request }) => {
        requests.push({ method: request.method, marker: request.headers.get('x-requested-with') });
        return new HttpResponse('kind: Config\n', {
          headers: { 'content-type': 'application/yaml', 'content-disposition': 'attachment; filename="kubeconfig.yaml"' },
        });
      }),
    );
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<KubeconfigDialog open onOpenChange={onOpenChange} />);
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(requests).toEqual([{ method: 'POST', marker: 'XMLHttpRequest' }]);
    expect(downloads.saved.map((file) => file.name)).toEqual(['kubeconfig.yaml']);
    expect(await downloads.saved[0]?.text).toBe('kind: Config\n');
  });
});
