import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadFile, fileNameFromDisposition } from './download-file';

describe('fileNameFromDisposition', () => {
  it('reads a quoted or bare file name', () => {
    expect(fileNameFromDisposition('attachment; filename="INC-7-postmortem.md"', 'x')).toBe('INC-7-postmortem.md');
    expect(fileNameFromDisposition('attachment; filename=kubeconfig.yaml', 'x')).toBe('kubeconfig.yaml');
  });

  it('prefers the encoded filename* form and decodes it', () => {
    expect(fileNameFromDisposition(`attachment; filename="plain.yaml"; filename*=UTF-8''caf%C3%A9.yaml`, 'x')).toBe('café.yaml');
  });

  it('falls back when there is no header, no file name or a broken encoding', () => {
    expect(fileNameFromDisposition(null, 'fallback.md')).toBe('fallback.md');
    expect(fileNameFromDisposition('attachment', 'fallback.md')).toBe('fallback.md');
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback.md')).toBe('fallback.md');
  });
});

describe('downloadFile', () => {
  const { createObjectURL, revokeObjectURL } = URL;
  afterEach(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('clicks a temporary link named after the file, removes it, and revokes the object URL once the click is handled', () => {
    vi.useFakeTimers();
    const create = vi.fn(() => 'blob:file-1');
    const revoke = vi.fn();
    URL.createObjectURL = create;
    URL.revokeObjectURL = revoke;
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
    });

    const blob = new Blob(['apiVersion: v1'], { type: 'application/yaml' });
    downloadFile(blob, 'kubeconfig.yaml');

    expect(create).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([{ href: 'blob:file-1', download: 'kubeconfig.yaml', attached: true }]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoke).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:file-1');
  });
});
