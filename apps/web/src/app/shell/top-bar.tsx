import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { clsx } from 'clsx';
import { HelpMenu } from './help-menu';
import { topBarButtonClass } from './menu-styles';
import { UserMenu } from './user-menu';

export function TopBar() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching();

  function handleRefresh() {
    void queryClient.invalidateQueries();
  }

  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center justify-end gap-1 border-b border-gray-200 bg-white px-4">
      <button type="button" onClick={handleRefresh} aria-label="Refresh" title="Refresh" className={topBarButtonClass}>
        <RefreshCw aria-hidden="true" className={clsx('size-5', fetching > 0 && 'animate-spin')} />
      </button>
      <HelpMenu />
      <UserMenu />
    </header>
  );
}
