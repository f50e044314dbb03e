import { useRef, useState, type ReactNode } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { clsx } from 'clsx';
import { CircleHelp, Maximize2, Minimize2, X } from 'lucide-react';

export type DialogSize = 'very-small' | 'small' | 'medium' | 'large' | 'full';

const SIZE_CLASSES: Record<DialogSize, string> = {
  // A margin on every side on a phone, so the dialog reads as one and not as the page.
  'very-small': 'w-[calc(100vw-2rem)] max-w-sm',
  small: 'w-[calc(100vw-2rem)] max-w-lg',
  medium: 'w-[calc(100vw-2rem)] max-w-3xl',
  large: 'w-[calc(100vw-2rem)] max-w-6xl',
  full: 'h-[calc(100vh-2rem)] w-[calc(100vw-2rem)] max-w-none',
};

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  size?: DialogSize;
  /** Shows the expand/collapse control that switches to full size. */
  expandable?: boolean;
  /** Documentation for this dialog, opened in a new tab. */
  helpLink?: string;
  footer?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/** What had the focus when a dialog opened, and how to find it again if the page has drawn it anew since. */
interface Opener {
  element: HTMLElement | null;
  /** A table row's address (its table's name and row id), for a row re-rendered while the dialog was open. */
  rowSelector: string | null;
}

function openerOf(active: Element | null): Opener {
  if (!(active instanceof HTMLElement)) return { element: null, rowSelector: null };
  const row = active.closest<HTMLElement>('tr[data-row-id]');
  const table = row?.closest('table[aria-label]');
  const rowSelector =
    row && table ? `table[aria-label="${CSS.escape(table.getAttribute('aria-label') ?? '')}"] tr[data-row-id="${CSS.escape(row.dataset.rowId ?? '')}"]` : null;
  return { element: active, rowSelector };
}

/** The opener itself, or the same row drawn again; null when neither is on the page any more. */
function openerTarget(opener: Opener): HTMLElement | null {
  if (opener.element?.isConnected === true) return opener.element;
  return opener.rowSelector === null ? null : document.querySelector<HTMLElement>(opener.rowSelector);
}

const ICON_BUTTON =
  'inline-flex size-7 items-center justify-center rounded text-gray-500 hover:bg-gray-100 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-blue-500';

/** A modal dialog: Escape, the close button and the overlay close it. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  size = 'medium',
  expandable = true,
  helpLink,
  footer,
  children,
  className,
}: DialogProps) {
  const [isExpanded, setIsExpanded] = useState(false);
  const effectiveSize = isExpanded ? 'full' : size;
  const opener = useRef<Opener>({ element: null, rowSelector: null });

  const handleOpenChange = (next: boolean) => {
    if (!next) setIsExpanded(false);
    onOpenChange(next);
  };

  return (
    <DialogPrimitive.Root open={open} onOpenChange={handleOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <DialogPrimitive.Content
          data-size={effectiveSize}
          onOpenAutoFocus={() => {
            opener.current = openerOf(document.activeElement);
          }}
          // Focus goes back to what opened the dialog (#36), also when the dialog closed by being unmounted and the
          // row that opened it was drawn anew in the meantime; Radix alone would leave it on the page's body then.
          onCloseAutoFocus={(event) => {
            const target = openerTarget(opener.current);
            if (target === null) return;
            event.preventDefault();
            target.focus();
          }}
          // Without a description, an explicit undefined tells Radix the dialog is deliberately undescribed.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={clsx(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100vh-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none',
            SIZE_CLASSES[effectiveSize],
            className,
          )}
        >
          <header className="flex items-center gap-2 border-b border-gray-200 px-4 py-3">
            <DialogPrimitive.Title className="flex-1 truncate text-base font-semibold text-gray-900">{title}</DialogPrimitive.Title>
            {helpLink && (
              <a href={helpLink} target="_blank" rel="noopener noreferrer" aria-label="Help" title="Documentation" className={ICON_BUTTON}>
                <CircleHelp aria-hidden="true" className="size-4" />
              </a>
            )}
            {expandable && size !== 'full' && (
              <button
                type="button"
                aria-label={isExpanded ? 'Collapse' : 'Expand'}
                aria-pressed={isExpanded}
                className={ICON_BUTTON}
                onClick={() => setIsExpanded((value) => !value)}
              >
                {isExpanded ? <Minimize2 aria-hidden="true" className="size-4" /> : <Maximize2 aria-hidden="true" className="size-4" />}
              </button>
            )}
            <DialogPrimitive.Close aria-label="Close" className={ICON_BUTTON}>
              <X aria-hidden="true" className="size-4" />
            </DialogPrimitive.Close>
          </header>
          {description && (
            <DialogPrimitive.Description className="px-4 pt-3 text-sm text-gray-600">{description}</DialogPrimitive.Description>
          )}
          <div className="min-h-0 flex-1 overflow-auto px-4 py-3">{children}</div>
          {/* Wraps: on a phone a check's four actions overflowed a row that ends at the right, and the first (Edit) sat
              past the left edge, out of reach. */}
          {footer && <footer className="flex flex-wrap justify-end gap-2 border-t border-gray-200 px-4 py-3">{footer}</footer>}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
