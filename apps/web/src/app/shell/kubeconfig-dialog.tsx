import { useState } from 'react';
import { Dialog } from 'radix-ui';
import { Download, LoaderCircle, X } from 'lucide-react';
import { toast } from 'sonner';
import { TOAST_DURATION_MS } from '@opsdeck/shared';
import { guardedFetch } from '@/lib/api/guarded-fetch';
import { downloadFile, fileNameFromDisposition } from '@/lib/download-file';

export interface KubeconfigDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

const FALLBACK_FILE_NAME = 'kubeconfig.yaml';

export function KubeconfigDialog({ open, onOpenChange }: KubeconfigDialogProps) {
  const [isDownloading, setIsDownloading] = useState(false);

  async function handleDownload() {
    setIsDownloading(true);
    try {
      // Minting a token is a write, so it is a POST under the server's CSRF rule (guardedFetch adds X-Requested-With);
      // the guarded fetch already toasts the server's message when this fails.
      const response = await guardedFetch('/api/kubeconfig', { method: 'POST', headers: { Accept: 'application/yaml, text/yaml, */*' } });
      if (!response.ok) return;
      downloadFile(await response.blob(), fileNameFromDisposition(response.headers.get('content-disposition'), FALLBACK_FILE_NAME));
      toast.success('Kubeconfig downloaded', { duration: TOAST_DURATION_MS });
      onOpenChange(false);
    } finally {
      setIsDownloading(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-gray-900">Download kubeconfig</Dialog.Title>
            <Dialog.Close aria-label="Close" className="rounded-md p-1 text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-brand-600">
              <X aria-hidden="true" className="size-4" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-2 text-sm text-gray-600">
            A kubeconfig lets kubectl and other Kubernetes tools reach this instance with your current session. Keep the file private.
          </Dialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <Dialog.Close className="rounded-md border border-gray-300 px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-brand-600">
              Cancel
            </Dialog.Close>
            <button
              type="button"
              onClick={handleDownload}
              disabled={isDownloading}
              className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60"
            >
              {isDownloading ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Download aria-hidden="true" className="size-4" />}
              Download
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
