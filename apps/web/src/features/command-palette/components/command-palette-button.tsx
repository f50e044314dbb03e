import { Search } from 'lucide-react';
import { useCommandPalette } from './command-palette-context';

function isApplePlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** The top bar's way into the palette, for the mouse and for people who do not know the shortcut. */
export function CommandPaletteButton() {
  const palette = useCommandPalette();
  if (palette === null) return null;
  const shortcut = isApplePlatform() ? '⌘K' : 'Ctrl K';
  return (
    <button
      type="button"
      onClick={palette.open}
      aria-keyshortcuts="Control+K Meta+K"
      title={`Search (${shortcut})`}
      className="inline-flex h-9 items-center gap-2 rounded-md border border-gray-200 bg-white px-2 text-sm text-gray-500 hover:bg-gray-50 hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-brand-600 sm:w-64 sm:px-3"
    >
      <Search aria-hidden="true" className="size-4 shrink-0" />
      {/* The name is the visible words (WCAG 2.5.3): "Search… Ctrl K" where they show, "Search…" on a phone. */}
      <span className="sr-only sm:not-sr-only">Search…</span>
      <kbd className="ml-auto hidden rounded border border-gray-200 bg-gray-50 px-1.5 font-sans text-xs text-gray-500 sm:inline">{shortcut}</kbd>
    </button>
  );
}
