import {
  Bell,
  Blocks,
  BookOpenCheck,
  Boxes,
  Cpu,
  FileText,
  Flag,
  HeartPulse,
  History,
  LayoutDashboard,
  ListChecks,
  ListRestart,
  Network,
  Plug,
  ScanSearch,
  ScrollText,
  Siren,
  Stethoscope,
  UserCog,
  Users,
  FileClock,
  type LucideIcon,
} from 'lucide-react';
import type { Feature, Resource } from '@opsdeck/shared';
import type { Permissions } from '@/lib/auth/permissions';

export interface NavigationEntry {
  label: string;
  path: string;
  icon: LucideIcon;
  /** The area a `{feature}.disable` flag switches off. */
  feature: Feature;
  /** Read permission on this resource is needed to see the entry. */
  resource: Resource;
  /** Only with the built-in identity service: hidden when people sign in through an external provider (hosted mode). */
  selfHostedOnly?: boolean;
}

/**
 * Top-level areas, in the order of spec 001 §2.1: Dashboard, Health, Incidents, Catalog, Logs, Playbooks.
 * An area gets its line here in the same change that ships its routes, so the sidebar never links to a missing page.
 */
export const primaryNavigation: readonly NavigationEntry[] = [
  // Spec 001 §2.1 calls the topology dashboard 'Dashboard'; it is also where `/` leads.
  { label: 'Dashboard', path: '/topology', icon: LayoutDashboard, feature: 'topology', resource: 'topologies' },
  { label: 'Health', path: '/health', icon: HeartPulse, feature: 'health', resource: 'canaries' },
  { label: 'Incidents', path: '/incidents', icon: Siren, feature: 'incidents', resource: 'incident' },
  { label: 'Catalog', path: '/catalog', icon: Boxes, feature: 'config', resource: 'database' },
  { label: 'Logs', path: '/logs', icon: ScrollText, feature: 'logs', resource: 'logging_backends' },
  { label: 'Playbooks', path: '/playbooks', icon: BookOpenCheck, feature: 'playbooks', resource: 'playbooks' },
];

/** Settings pages; the sidebar sorts them by label. */
export const settingsNavigation: readonly NavigationEntry[] = [
  { label: 'Agents', path: '/settings/agents', icon: Cpu, feature: 'agents', resource: 'agents' },
  { label: 'Connections', path: '/settings/connections', icon: Plug, feature: 'settings.connections', resource: 'connections' },
  // Spec 002 §2.2: user management belongs to the sign-in provider in hosted mode.
  { label: 'Users', path: '/settings/users', icon: UserCog, feature: 'settings.users', resource: 'identities', selfHostedOnly: true },
  // Teams fall to the data API's `database` resource; incident rules take `incident` (spec 000 §6).
  { label: 'Teams', path: '/settings/teams', icon: Users, feature: 'settings.teams', resource: 'database' },
  { label: 'Incident Rules', path: '/settings/incident_rules', icon: ListChecks, feature: 'settings.rules', resource: 'incident' },
  { label: 'Health Checks', path: '/settings/canaries', icon: Stethoscope, feature: 'settings.health', resource: 'canaries' },
  { label: 'Topologies', path: '/settings/topologies', icon: Network, feature: 'settings.topology', resource: 'topologies' },
  // Spec 001 §2.1 spells the entry 'Jobs History'; job_histories falls to the data API's `database` resource.
  { label: 'Jobs History', path: '/settings/jobs', icon: History, feature: 'settings.job_history', resource: 'database' },
  { label: 'Notifications', path: '/settings/notifications', icon: Bell, feature: 'settings.notifications', resource: 'notifications' },
  { label: 'Feature Flags', path: '/settings/feature-flags', icon: Flag, feature: 'settings.feature_flags', resource: 'feature_flags' },
  { label: 'Event Queue', path: '/settings/event-queue-status', icon: ListRestart, feature: 'settings.event_queue_status', resource: 'database' },
  { label: 'Log Backends', path: '/settings/logging_backends', icon: FileText, feature: 'settings.logging_backends', resource: 'logging_backends' },
  { label: 'Integrations', path: '/settings/integrations', icon: Blocks, feature: 'settings.integrations', resource: 'integrations' },
  // Spec 002 §2.2: scrapers have no generic settings page; their menu entry opens the catalog's scraper list.
  { label: 'Catalog Scrapers', path: '/catalog/scrapers', icon: ScanSearch, feature: 'settings.config_scraper', resource: 'config_scrapers' },
  // #19: who wrote what through the API; the `audit` resource is for admins alone.
  { label: 'Audit Log', path: '/settings/audit', icon: FileClock, feature: 'settings.audit', resource: 'audit' },
];

export interface NavigationAccess {
  permissions: Pick<Permissions, 'can' | 'isViewer'>;
  isEnabled(feature: Feature): boolean;
  /** People sign in through an external provider; the built-in service's pages are hidden. False when not given. */
  isHostedMode?: boolean;
}

export interface VisibleNavigation {
  primary: NavigationEntry[];
  settings: NavigationEntry[];
}

function isVisible(entry: NavigationEntry, access: NavigationAccess): boolean {
  if (entry.selfHostedOnly === true && access.isHostedMode === true) return false;
  return access.isEnabled(entry.feature) && access.permissions.can(entry.resource, 'read');
}

/** What the sidebar shows this user: entries of disabled areas or unreadable resources are dropped. */
export function visibleNavigation(
  access: NavigationAccess,
  registry: { primary: readonly NavigationEntry[]; settings: readonly NavigationEntry[] } = { primary: primaryNavigation, settings: settingsNavigation },
): VisibleNavigation {
  const primary = registry.primary.filter((entry) => isVisible(entry, access));
  // The viewer role never sees Settings at all (spec 001 §6).
  const settings = access.permissions.isViewer
    ? []
    : registry.settings.filter((entry) => isVisible(entry, access)).sort((a, b) => a.label.localeCompare(b.label));
  return { primary, settings };
}

export const TOPOLOGY_PATH = '/topology';
export const PREFERENCES_PATH = '/preferences';

/**
 * Where `/` leads. The spec sends everyone to the topology dashboard; a user who cannot see it (no read on topologies,
 * or the area switched off) goes to the first page they can see, and to Preferences (open to every signed-in user)
 * when there is none.
 */
export function homePath(navigation: VisibleNavigation): string {
  const all = [...navigation.primary, ...navigation.settings];
  if (all.some((entry) => entry.path === TOPOLOGY_PATH)) return TOPOLOGY_PATH;
  return all[0]?.path ?? PREFERENCES_PATH;
}
