import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronDown, Layers, PanelLeftClose, PanelLeftOpen, Settings } from 'lucide-react';
import { clsx } from 'clsx';
import type { NavigationEntry } from '../navigation';
import { useVisibleNavigation } from '../use-visible-navigation';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

/** Below Tailwind's `lg` breakpoint the open sidebar covers too much of the page, so a click elsewhere closes it. */
const NARROW_SCREEN_PX = 1024;

function entryClassName(collapsed: boolean, nested: boolean) {
  return ({ isActive }: { isActive: boolean }) =>
    clsx(
      'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-500',
      collapsed && 'justify-center px-2',
      nested && !collapsed && 'pl-10',
      isActive ? 'bg-gray-800 text-white' : 'text-gray-300 hover:bg-gray-800/70 hover:text-white',
    );
}

function SidebarLink({ entry, collapsed, nested = false }: { entry: NavigationEntry; collapsed: boolean; nested?: boolean }) {
  const Icon = entry.icon;
  return (
    <li>
      <NavLink to={entry.path} className={entryClassName(collapsed, nested)} title={collapsed ? entry.label : undefined}>
        <Icon aria-hidden="true" className="size-5 shrink-0" />
        <span className={clsx(collapsed && 'sr-only')}>{entry.label}</span>
      </NavLink>
    </li>
  );
}

export function Sidebar() {
  const { primary, settings } = useVisibleNavigation();
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const location = useLocation();
  const inSettings = location.pathname.startsWith('/settings');
  const [settingsOpen, setSettingsOpen] = useState(inSettings);
  const asideRef = useRef<HTMLElement>(null);
  const settingsMenuId = useId();
  const asideId = useId();

  useEffect(() => {
    if (inSettings) setSettingsOpen(true);
  }, [inSettings]);

  useEffect(() => {
    if (collapsed) return;
    function handlePointerDown(event: PointerEvent) {
      if (window.innerWidth >= NARROW_SCREEN_PX) return;
      if (event.target instanceof Node && asideRef.current?.contains(event.target)) return;
      setCollapsed(true);
    }
    document.addEventListener('pointerdown', handlePointerDown);
    return () => document.removeEventListener('pointerdown', handlePointerDown);
  }, [collapsed, setCollapsed]);

  function handleSettingsClick() {
    if (collapsed) {
      setCollapsed(false);
      setSettingsOpen(true);
      return;
    }
    setSettingsOpen((open) => !open);
  }

  const showSettings = settings.length > 0;
  const settingsExpanded = settingsOpen && !collapsed;

  return (
    <aside
      ref={asideRef}
      id={asideId}
      data-collapsed={collapsed}
      className={clsx(
        'sticky top-0 flex h-screen shrink-0 flex-col border-r border-gray-800 bg-gray-900 text-gray-300 transition-[width] duration-200',
        collapsed ? 'w-16' : 'w-60',
      )}
    >
      <div className={clsx('flex h-14 items-center border-b border-gray-800', collapsed ? 'justify-center' : 'px-4')}>
        <Link to="/" aria-label="Opsdeck home" className="flex items-center gap-2 rounded-md text-white focus-visible:outline-2 focus-visible:outline-brand-500">
          <span className="flex size-8 items-center justify-center rounded-lg bg-brand-600">
            <Layers aria-hidden="true" className="size-5" />
          </span>
          {!collapsed && <span className="text-base font-semibold tracking-tight">Opsdeck</span>}
        </Link>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-3">
        <ul className="space-y-1">
          {primary.map((entry) => (
            <SidebarLink key={entry.path} entry={entry} collapsed={collapsed} />
          ))}
          {showSettings && (
            <li>
              <button
                type="button"
                onClick={handleSettingsClick}
                aria-expanded={settingsExpanded}
                aria-controls={settingsMenuId}
                title={collapsed ? 'Settings' : undefined}
                className={clsx(
                  'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-500',
                  collapsed && 'justify-center px-2',
                  inSettings ? 'text-white' : 'text-gray-300 hover:bg-gray-800/70 hover:text-white',
                )}
              >
                <Settings aria-hidden="true" className="size-5 shrink-0" />
                <span className={clsx('flex-1 text-left', collapsed && 'sr-only')}>Settings</span>
                {!collapsed && <ChevronDown aria-hidden="true" className={clsx('size-4 transition-transform', settingsExpanded && 'rotate-180')} />}
              </button>
              <ul id={settingsMenuId} aria-label="Settings" hidden={!settingsExpanded} className="mt-1 space-y-1">
                {settings.map((entry) => (
                  <SidebarLink key={entry.path} entry={entry} collapsed={collapsed} nested />
                ))}
              </ul>
            </li>
          )}
        </ul>
      </nav>
      <div className="border-t border-gray-800 p-2">
        <button
          type="button"
          onClick={() => setCollapsed(!collapsed)}
          aria-controls={asideId}
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className={clsx(
            'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-gray-400 hover:bg-gray-800/70 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-500',
            collapsed && 'justify-center px-2',
          )}
        >
          {collapsed ? <PanelLeftOpen aria-hidden="true" className="size-5" /> : <PanelLeftClose aria-hidden="true" className="size-5" />}
          {!collapsed && <span>Collapse</span>}
        </button>
      </div>
    </aside>
  );
}
