import type { LucideIcon } from 'lucide-react';

/** A page of the app the palette offers, from the navigation the person can see (the shell passes it in). */
export interface PalettePage {
  label: string;
  path: string;
  /** The heading it is listed under: 'Pages' for the main areas, 'Settings' for the settings pages. */
  group: string;
  icon?: LucideIcon;
}

/** Something the palette does rather than a place it goes to. */
export interface PaletteAction {
  id: string;
  label: string;
  /** More words it is found by ('new', 'theme', …). */
  keywords?: readonly string[];
  icon?: LucideIcon;
  onSelect: () => void;
}

/** True when every word of the text appears somewhere in the label or keywords, ignoring case; a blank text matches all. */
export function matchesText(text: string, label: string, keywords: readonly string[] = []): boolean {
  const words = text.trim().toLowerCase().split(/\s+/).filter((word) => word !== '');
  const haystack = [label, ...keywords].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}
