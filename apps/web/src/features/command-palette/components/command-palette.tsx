import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Command } from 'cmdk';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { clsx } from 'clsx';
import { BookOpenCheck, Boxes, FileText, HeartPulse, Loader2, Network, Search, Siren, SunMoon, Zap, type LucideIcon } from 'lucide-react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useTheme } from '@/lib/theme/theme';
import { SEARCH_TEXT_MAX_LENGTH, useSearchQuery, type SearchResult, type SearchResultKind } from '../api/search';
import { matchesText, type PaletteAction, type PalettePage } from './palette-entries';

/** How long typing must pause before the server is asked: one call per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 200;

const KIND_GROUPS: Record<SearchResultKind, { heading: string; icon: LucideIcon }> = {
  incident: { heading: 'Incidents', icon: Siren },
  check: { heading: 'Health checks', icon: HeartPulse },
  config: { heading: 'Catalog', icon: Boxes },
  component: { heading: 'Components', icon: Network },
  playbook: { heading: 'Playbooks', icon: BookOpenCheck },
};

const GROUP_CLASS =
  'px-1 py-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-gray-500';
const ITEM_CLASS =
  'flex cursor-pointer select-none items-center gap-3 rounded-md px-2 py-2 text-sm text-gray-800 data-[selected=true]:bg-gray-100 data-[selected=true]:text-gray-900';

interface Entry {
  value: string;
  label: string;
  subtitle?: string;
  icon: LucideIcon;
  onSelect: () => void;
}

interface Group {
  heading: string;
  entries: Entry[];
}

/** Server results in groups per kind, the groups in the order of their best result (the server ranks across kinds). */
function resultGroups(items: readonly SearchResult[], go: (url: string) => void): Group[] {
  const groups = new Map<SearchResultKind, Group>();
  for (const item of items) {
    const kind = KIND_GROUPS[item.kind];
    let group = groups.get(item.kind);
    if (group === undefined) {
      group = { heading: kind.heading, entries: [] };
      groups.set(item.kind, group);
    }
    group.entries.push({ value: `${item.kind}:${item.id}`, label: item.title, subtitle: item.subtitle, icon: kind.icon, onSelect: () => go(item.url) });
  }
  return [...groups.values()];
}

function PaletteItem({ entry }: { entry: Entry }) {
  const Icon = entry.icon;
  return (
    <Command.Item value={entry.value} onSelect={entry.onSelect} className={ITEM_CLASS}>
      <Icon aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
      <span className="min-w-0 flex-1 truncate">{entry.label}</span>
      {entry.subtitle !== undefined && <span className="max-w-[45%] shrink-0 truncate text-xs text-gray-500">{entry.subtitle}</span>}
    </Command.Item>
  );
}

interface PaletteBodyProps {
  pages: readonly PalettePage[];
  actions: readonly PaletteAction[];
  /** Closes the palette, then runs what was chosen (so a dialog it opens takes the focus). */
  choose: (run: () => void) => void;
}

function PaletteBody({ pages, actions, choose }: PaletteBodyProps) {
  const navigate = useNavigate();
  const theme = useTheme();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useSearchQuery(debounced);
  const trimmed = text.trim();
  const typing = trimmed !== debounced;
  // Results of an earlier text are kept while the next loads (no flicker), but never shown for a blank box.
  const answer = search.data;
  const items = useMemo(() => (trimmed === '' ? [] : (answer?.items ?? [])), [answer, trimmed]);
  const loading = trimmed !== '' && (typing || search.isFetching);

  const groups = useMemo<Group[]>(() => {
    const go = (path: string) => choose(() => void navigate(path));
    const allActions: PaletteAction[] = [
      ...actions,
      { id: 'toggle-theme', label: theme.theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme', keywords: ['toggle theme', 'dark mode', 'light mode'], icon: SunMoon, onSelect: theme.toggle },
    ];
    const actionEntries: Entry[] = allActions
      .filter((action) => matchesText(trimmed, action.label, action.keywords))
      .map((action) => ({ value: `action:${action.id}`, label: action.label, icon: action.icon ?? Zap, onSelect: () => choose(action.onSelect) }));
    const pageGroups = new Map<string, Group>();
    for (const page of pages) {
      if (!matchesText(trimmed, page.label, [page.group])) continue;
      let group = pageGroups.get(page.group);
      if (group === undefined) {
        group = { heading: page.group, entries: [] };
        pageGroups.set(page.group, group);
      }
      group.entries.push({ value: `page:${page.path}`, label: page.label, subtitle: page.path, icon: page.icon ?? FileText, onSelect: () => go(page.path) });
    }
    const local: Group[] = [...pageGroups.values()];
    const actionGroup: Group[] = actionEntries.length > 0 ? [{ heading: 'Actions', entries: actionEntries }] : [];
    // With nothing typed the palette is a menu: actions first. Once someone types, what they look for comes first.
    return trimmed === '' ? [...actionGroup, ...local] : [...resultGroups(items, go), ...local, ...actionGroup];
  }, [actions, choose, items, navigate, pages, theme.theme, theme.toggle, trimmed]);

  // The first entry is selected whenever the list changes, so Enter after typing opens the best match.
  const firstValue = groups[0]?.entries[0]?.value ?? '';
  const [selected, setSelected] = useState(firstValue);
  const [selectedFor, setSelectedFor] = useState(firstValue);
  if (selectedFor !== firstValue) {
    setSelectedFor(firstValue);
    setSelected(firstValue);
  }

  const nothing = groups.length === 0;

  return (
    <Command label="Command palette" shouldFilter={false} loop value={selected} onValueChange={setSelected} className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 border-b border-gray-200 px-3">
        <Search aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
        <Command.Input
          value={text}
          onValueChange={setText}
          maxLength={SEARCH_TEXT_MAX_LENGTH}
          placeholder="Search checks, catalog, incidents, playbooks, pages…"
          className="h-12 min-w-0 flex-1 bg-transparent text-base text-gray-900 outline-none placeholder:text-gray-400 sm:text-sm"
        />
        {loading && <Loader2 aria-hidden="true" className="size-4 shrink-0 animate-spin text-gray-400" />}
        <kbd className="hidden rounded border border-gray-200 bg-gray-50 px-1.5 text-xs text-gray-500 sm:inline">Esc</kbd>
      </div>
      <Command.List className="min-h-0 flex-1 overflow-y-auto overscroll-contain sm:max-h-[min(60vh,28rem)]">
        {loading && items.length === 0 && <Command.Loading className="px-4 py-3 text-sm text-gray-500">Searching…</Command.Loading>}
        {search.isError && trimmed !== '' && (
          <p role="alert" className="mx-2 mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            Search failed: {search.error.message}
          </p>
        )}
        {nothing && !loading && (
          <p role="status" className="px-4 py-6 text-center text-sm text-gray-500">
            No results for “{trimmed}”.
          </p>
        )}
        {groups.map((group) => (
          <Command.Group key={group.heading} heading={group.heading} className={GROUP_CLASS}>
            {group.entries.map((entry) => (
              <PaletteItem key={entry.value} entry={entry} />
            ))}
          </Command.Group>
        ))}
      </Command.List>
      <p className="hidden border-t border-gray-200 px-3 py-2 text-xs text-gray-500 sm:block">↑↓ to move, Enter to open, Esc to close</p>
    </Command>
  );
}

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pages: readonly PalettePage[];
  actions: readonly PaletteAction[];
}

/**
 * The command palette (issue #19 item 3): one box that finds checks, config items, components, incidents and
 * playbooks through GET /api/search, the pages the person can see, and a few actions. A modal dialog: Escape closes it
 * and the focus goes back where it was. A full-width sheet from the top on a phone, a centred panel from `sm` up.
 */
export function CommandPalette({ open, onOpenChange, pages, actions }: CommandPaletteProps) {
  const choose = useMemo(
    () => (run: () => void) => {
      onOpenChange(false);
      // After the dialog has closed and given the focus back, so a dialog the action opens keeps the focus.
      window.setTimeout(run, 0);
    },
    [onOpenChange],
  );
  // Opened by a shortcut rather than a Radix trigger, so Radix has nowhere to return the focus: the palette keeps what
  // had it (a field, the top-bar button) and gives it back on close.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  function handleOpenAutoFocus() {
    returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }
  function handleCloseAutoFocus(event: Event) {
    const target = returnFocusTo.current;
    returnFocusTo.current = null;
    if (target === null || !target.isConnected) return;
    event.preventDefault();
    target.focus();
  }
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onOpenAutoFocus={handleOpenAutoFocus}
          onCloseAutoFocus={handleCloseAutoFocus}
          className={clsx(
            'fixed z-50 flex flex-col overflow-hidden bg-white shadow-xl focus:outline-none',
            'inset-x-0 top-0 max-h-[100dvh] w-full border-b border-gray-200',
            'sm:inset-x-auto sm:top-[12vh] sm:left-1/2 sm:max-h-[76vh] sm:w-[calc(100vw-2rem)] sm:max-w-xl sm:-translate-x-1/2 sm:rounded-lg sm:border',
          )}
        >
          <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
          <PaletteBody pages={pages} actions={actions} choose={choose} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
