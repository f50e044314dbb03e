import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronDown, Layers, PanelLeftClose, PanelLeftOpen, Settings, X } from 'lucide-react';
import { clsx } from 'clsx';
import type { NavigationEntry } from '../navigation';
import { useVisibleNavigation } from '../use-visible-navigation';
import { useIsWideScreen } from './use-is-wide-screen';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

function entryClassName(collapsed: boolean, nested: boolean) {
  return ({ isActive }: { isActive: boolean }) =>
    clsx(
      'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-500',
      collapsed && 'justify-center px-2',
      nested && !collapsed && 'pl-10',
      isActive ? 'bg-gray-800 text-white' : 'text-gray-300 hover:bg-gray-800/70 hover:text-white',
    );
}

interface SidebarLinkProps {
  entry: NavigationEntry;
  collapsed: boolean;
  nested?: boolean;
  onFollow?: () => void;
}

function SidebarLink({ entry, collapsed, nested = false, onFollow }: SidebarLinkProps) {
  const Icon = entry.icon;
  return (
    <li>
      <NavLink to={entry.path} onClick={onFollow} className={entryClassName(collapsed, nested)} title={collapsed ? entry.label : undefined}>
        <Icon aria-hidden="true" className="size-5 shrink-0" />
        <span className={clsx(collapsed && 'sr-only')}>{entry.label}</span>
      </NavLink>
    </li>
  );
}

export interface SidebarProps {
  /** The element id the top bar's menu button controls. */
  id: string;
  /** Below `lg` the sidebar is an off-canvas drawer, shown while this is true. */
  drawerOpen: boolean;
  onDrawerOpenChange: (open: boolean) => void;
  /** Where focus goes back to when the drawer closes: the menu button that opened it. */
  returnFocusRef: RefObject<HTMLElement | null>;
}

export function Sidebar({ id, drawerOpen, onDrawerOpenChange, returnFocusRef }: SidebarProps) {
  const { primary, settings } = useVisibleNavigation();
  const [storedCollapsed, setCollapsed] = useSidebarCollapsed();
  const wide = useIsWideScreen();
  // The drawer always shows the labels; the remembered collapse applies beside the page only.
  const collapsed = wide && storedCollapsed;
  const isDrawer = !wide;
  const showDrawer = isDrawer && drawerOpen;
  // A resize across lg switches the sidebar between beside-the-page and drawer: it jumps to its place there, and
  // only opening and closing the drawer slide. Without this the closed drawer slid out over the page after a resize.
  const [settledDrawer, setSettledDrawer] = useState(isDrawer);
  useEffect(() => {
    if (settledDrawer === isDrawer) return;
    const frame = requestAnimationFrame(() => setSettledDrawer(isDrawer));
    return () => cancelAnimationFrame(frame);
  }, [isDrawer, settledDrawer]);
  const slides = settledDrawer === isDrawer;
  const location = useLocation();
  const inSettings = location.pathname.startsWith('/settings');
  const [settingsOpen, setSettingsOpen] = useState(inSettings);
  const asideRef = useRef<HTMLElement>(null);
  const settingsMenuId = useId();

  useEffect(() => {
    if (inSettings) setSettingsOpen(true);
  }, [inSettings]);

  useEffect(() => {
    if (!showDrawer) return;
    asideRef.current?.querySelector<HTMLElement>('nav a, nav button')?.focus();
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') onDrawerOpenChange(false);
    }
    document.addEventListener('keydown', handleKeyDown);
    const returnFocus = returnFocusRef.current;
    const aside = asideRef.current;
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      // Focus left inside a closed drawer would sit on an invisible link; the menu button is where the user was.
      const active = document.activeElement;
      if (active === null || active === document.body || aside?.contains(active)) returnFocus?.focus();
    };
  }, [showDrawer, onDrawerOpenChange, returnFocusRef]);

  function handleSettingsClick() {
    if (collapsed) {
      setCollapsed(false);
      setSettingsOpen(true);
      return;
    }
    setSettingsOpen((open) => !open);
  }

  // The drawer closes at once rather than when the next page's code has loaded and the route changes.
  const handleFollow = isDrawer ? () => onDrawerOpenChange(false) : undefined;
  const showSettings = settings.length > 0;
  const settingsExpanded = settingsOpen && !collapsed;

  return (
    <>
      {showDrawer && <div aria-hidden="true" data-testid="drawer-backdrop" onClick={() => onDrawerOpenChange(false)} className="fixed inset-0 z-30 bg-black/40" />}
      <aside
        ref={asideRef}
        id={id}
        data-collapsed={collapsed}
        data-drawer={isDrawer ? (drawerOpen ? 'open' : 'closed') : undefined}
        className={clsx(
          // palette-light: the sidebar is a dark panel in both themes (styles.css).
          'palette-light flex h-screen shrink-0 flex-col border-r border-gray-800 bg-gray-900 text-gray-300',
          isDrawer
            ? // Invisible when closed, so its links leave the tab order and the accessibility tree, not just the screen.
              clsx('fixed inset-y-0 left-0 z-40 w-72 max-w-[85vw] shadow-xl', slides && 'transition-[translate,visibility] duration-200', drawerOpen ? 'translate-x-0' : 'invisible -translate-x-full')
            : clsx('sticky top-0 transition-[width] duration-200', collapsed ? 'w-16' : 'w-60'),
        )}
      >
        <div className={clsx('flex h-14 items-center border-b border-gray-800', collapsed ? 'justify-center' : 'px-4')}>
          <Link to="/" aria-label="Opsdeck home" className="flex items-center gap-2 rounded-md text-white focus-visible:outline-2 focus-visible:outline-brand-500">
            <span className="flex size-8 items-center justify-center rounded-lg bg-brand-600">
              <Layers aria-hidden="true" className="size-5" />
            </span>
            {!collapsed && <span className="text-base font-semibold tracking-tight">Opsdeck</span>}
          </Link>
          {isDrawer && (
            <button
              type="button"
              onClick={() => onDrawerOpenChange(false)}
              aria-label="Close navigation"
              className="ml-auto inline-flex size-9 items-center justify-center rounded-md text-gray-400 hover:bg-gray-800/70 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          )}
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-2 py-3">
          <ul className="space-y-1">
            {primary.map((entry) => (
              <SidebarLink key={entry.path} entry={entry} collapsed={collapsed} onFollow={handleFollow} />
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
                    <SidebarLink key={entry.path} entry={entry} collapsed={collapsed} nested onFollow={handleFollow} />
                  ))}
                </ul>
              </li>
            )}
          </ul>
        </nav>
        {!isDrawer && (
          <div className="border-t border-gray-800 p-2">
            <button
              type="button"
              onClick={() => setCollapsed(!collapsed)}
              aria-controls={id}
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
        )}
      </aside>
    </>
  );
}
