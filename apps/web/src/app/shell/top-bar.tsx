import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { Menu, RefreshCw } from 'lucide-react';
import { clsx } from 'clsx';
import { CommandPaletteButton } from '@/features/command-palette/components/command-palette-button';
import { HelpMenu } from './help-menu';
import { topBarButtonClass } from './menu-styles';
import { useIsWideScreen } from './use-is-wide-screen';
import { UserMenu } from './user-menu';

export interface TopBarProps {
  /** The id of the sidebar, which is a drawer below `lg` that the menu button opens. */
  navigationId: string;
  navigationOpen: boolean;
  onOpenNavigation: () => void;
  menuButtonRef: RefObject<HTMLButtonElement | null>;
}

export function TopBar({ navigationId, navigationOpen, onOpenNavigation, menuButtonRef }: TopBarProps) {
  const wide = useIsWideScreen();
  const queryClient = useQueryClient();
  const fetching = useIsFetching();

  function handleRefresh() {
    void queryClient.invalidateQueries();
  }

  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center justify-end gap-1 border-b border-gray-200 bg-white px-2 sm:px-4">
      {!wide && (
        <button
          ref={menuButtonRef}
          type="button"
          onClick={onOpenNavigation}
          aria-label="Open navigation"
          aria-controls={navigationId}
          aria-expanded={navigationOpen}
          className={clsx(topBarButtonClass, 'mr-auto')}
        >
          <Menu aria-hidden="true" className="size-5" />
        </button>
      )}
      <CommandPaletteButton />
      <button type="button" onClick={handleRefresh} aria-label="Refresh" title="Refresh" className={topBarButtonClass}>
        <RefreshCw aria-hidden="true" className={clsx('size-5', fetching > 0 && 'animate-spin')} />
      </button>
      <HelpMenu />
      <UserMenu />
    </header>
  );
}
