import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRight, RefreshCw } from 'lucide-react';
import { Button } from '@/components/button/button';

export interface SettingsPageHeaderProps {
  /** The page's own name after 'Settings' in the trail; it is the page's h1. */
  title: string;
  onRefresh: () => void;
  /** The refresh button rests while a refresh is under way. */
  refreshing: boolean;
  /** Shown at the far end of the header (a time-range picker). */
  children?: ReactNode;
}

/**
 * 'Settings › <title>', the page's h1 as its last step: every settings page starts with it (#34 item 22), so a person
 * always sees which part of Settings they are in. A page under another settings page names that one as `parent`,
 * linked: 'Settings › Notifications › Demo inbox'.
 */
export function SettingsTrail({ title, parent }: { title: string; parent?: { label: string; to: string } }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-lg font-semibold text-gray-900">
        <li className="text-gray-500">Settings</li>
        <li aria-hidden="true">
          <ChevronRight className="size-4 text-gray-400" />
        </li>
        {parent !== undefined && (
          <>
            <li>
              <Link to={parent.to} className="text-blue-700 hover:underline">
                {parent.label}
              </Link>
            </li>
            <li aria-hidden="true">
              <ChevronRight className="size-4 text-gray-400" />
            </li>
          </>
        )}
        <li>
          <h1 aria-current="page">{title}</h1>
        </li>
      </ol>
    </nav>
  );
}

/** The header of a settings page that lists records of the server's own (job history, the audit log). */
export function SettingsPageHeader({ title, onRefresh, refreshing, children }: SettingsPageHeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-2">
      <SettingsTrail title={title} />
      <Button variant="ghost" aria-label="Refresh" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className="size-4" />
      </Button>
      {children !== undefined && <div className="ml-auto">{children}</div>}
    </header>
  );
}
