import { Copy } from 'lucide-react';
import { Button } from '@/components/button/button';
import { toastError, toastSuccess } from '@/components/toast/toast';

export interface CopyButtonProps {
  text: string;
  /** Accessible name, e.g. 'Copy Flux manifest'. */
  label: string;
  disabled?: boolean;
}

/** Copies text with the messages of spec 001 §8. */
export function CopyButton({ text, label, disabled }: CopyButtonProps) {
  const handleCopy = async () => {
    // Browsers leave the clipboard out of pages served over plain http from another machine.
    const clipboard: Clipboard | undefined = navigator.clipboard;
    if (clipboard === undefined) {
      toastError('Clipboard not available');
      return;
    }
    try {
      await clipboard.writeText(text);
      toastSuccess('Copied to clipboard');
    } catch {
      toastError('Failed to copy to clipboard');
    }
  };

  return (
    <Button variant="secondary" aria-label={label} disabled={disabled} onClick={() => void handleCopy()}>
      <Copy aria-hidden="true" className="size-4" />
      Copy
    </Button>
  );
}
