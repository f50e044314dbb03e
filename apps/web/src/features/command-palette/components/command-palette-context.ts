import { createContext, useContext } from 'react';

export interface CommandPaletteControls {
  /** Opens the palette (the top-bar button; ⌘K / Ctrl+K is handled by the provider). */
  open: () => void;
}

export const CommandPaletteContext = createContext<CommandPaletteControls | null>(null);

/** The palette's controls; null outside a CommandPaletteProvider, where a button has nothing to open. */
export function useCommandPalette(): CommandPaletteControls | null {
  return useContext(CommandPaletteContext);
}
