import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { CommandPalette } from './command-palette';
import { CommandPaletteContext, type CommandPaletteControls } from './command-palette-context';
import type { PaletteAction, PalettePage } from './palette-entries';

export interface CommandPaletteProviderProps {
  pages: readonly PalettePage[];
  actions: readonly PaletteAction[];
  children: ReactNode;
}

/** ⌘K on a Mac, Ctrl+K elsewhere; both work everywhere, as a person on a Linux desktop with a Mac keyboard expects. */
export function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
}

/**
 * Mounts the command palette once for the shell and listens for ⌘K / Ctrl+K anywhere in it, also inside text fields
 * (the shortcut is the palette's, as in the tools people know it from; the browser's own Ctrl+K is given up for it).
 * The same keys close it again.
 */
export function CommandPaletteProvider({ pages, actions, children }: CommandPaletteProviderProps) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      if (!isPaletteShortcut(event) || event.repeat) return;
      event.preventDefault();
      setOpen((current) => !current);
    }
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, []);

  const controls = useMemo<CommandPaletteControls>(() => ({ open: () => setOpen(true) }), []);

  return (
    <CommandPaletteContext.Provider value={controls}>
      {children}
      <CommandPalette open={open} onOpenChange={setOpen} pages={pages} actions={actions} />
    </CommandPaletteContext.Provider>
  );
}
