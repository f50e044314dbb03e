import { describe, expect, it } from 'vitest';
import { Activity, Flag, Network, Users } from 'lucide-react';
import type { Feature } from '@opsdeck/shared';
import { permissionsFromRoles } from '@/lib/auth/permissions';
import { homePath, primaryNavigation, settingsNavigation, visibleNavigation, type NavigationEntry } from './navigation';

const enabled = () => true;

const registry: { primary: NavigationEntry[]; settings: NavigationEntry[] } = {
  primary: [
    { label: 'Dashboard', path: '/topology', icon: Network, feature: 'topology', resource: 'topologies' },
    { label: 'Health', path: '/health', icon: Activity, feature: 'health', resource: 'canaries' },
  ],
  settings: [
    { label: 'Users', path: '/settings/users', icon: Users, feature: 'settings.users', resource: 'identities' },
    { label: 'Feature Flags', path: '/settings/feature-flags', icon: Flag, feature: 'settings.feature_flags', resource: 'feature_flags' },
  ],
};

function visibleFor(roles: string[], isEnabled: (feature: Feature) => boolean = enabled) {
  return visibleNavigation({ permissions: permissionsFromRoles(roles), isEnabled }, registry);
}

describe('visibleNavigation', () => {
  it('shows an admin every entry, with settings sorted by label', () => {
    const navigation = visibleFor(['admin']);
    expect(navigation.primary.map((entry) => entry.label)).toEqual(['Dashboard', 'Health']);
    expect(navigation.settings.map((entry) => entry.label)).toEqual(['Feature Flags', 'Users']);
  });

  it('hides the whole settings submenu from a viewer', () => {
    expect(visibleFor(['viewer']).settings).toEqual([]);
  });

  it('treats a user without roles as a viewer', () => {
    expect(visibleFor([]).settings).toEqual([]);
  });

  it('hides entries whose resource the user cannot read', () => {
    expect(visibleFor(['responder']).settings.map((entry) => entry.label)).toEqual(['Feature Flags']);
  });

  it('hides entries whose feature is disabled', () => {
    const navigation = visibleFor(['admin'], (feature) => feature !== 'health' && feature !== 'settings.feature_flags');
    expect(navigation.primary.map((entry) => entry.label)).toEqual(['Dashboard']);
    expect(navigation.settings.map((entry) => entry.label)).toEqual(['Users']);
  });
});

describe('the Logs entry', () => {
  const app = { primary: primaryNavigation, settings: settingsNavigation };
  const labels = (access: Parameters<typeof visibleNavigation>[0]) => visibleNavigation(access, app).primary.map((entry) => entry.label);

  it('sits between Catalog and Playbooks, as spec 001 §2.1 orders the sidebar', () => {
    expect(labels({ permissions: permissionsFromRoles(['viewer']), isEnabled: enabled })).toEqual(['Dashboard', 'Health', 'Incidents', 'Catalog', 'Logs', 'Playbooks']);
  });

  it('is hidden while the logs area is switched off', () => {
    expect(labels({ permissions: permissionsFromRoles(['admin']), isEnabled: (feature) => feature !== 'logs' })).not.toContain('Logs');
  });

  it('is hidden from a user who may not read log backends', () => {
    const permissions = { can: (resource: string) => resource !== 'logging_backends', isViewer: false };
    expect(labels({ permissions, isEnabled: enabled })).toEqual(['Dashboard', 'Health', 'Incidents', 'Catalog', 'Playbooks']);
  });
});

describe('the user and team entries', () => {
  const app = { primary: primaryNavigation, settings: settingsNavigation };
  const settingsFor = (roles: string[], isHostedMode?: boolean) =>
    visibleNavigation({ permissions: permissionsFromRoles(roles), isEnabled: enabled, ...(isHostedMode === undefined ? {} : { isHostedMode }) }, app).settings.map(
      (entry) => entry.label,
    );

  it('shows Users, Teams and Incident Rules to admins and editors, who read identities (spec 000 §6)', () => {
    for (const role of ['admin', 'editor']) {
      expect(settingsFor([role])).toEqual(expect.arrayContaining(['Users', 'Teams', 'Incident Rules']));
    }
  });

  it('shows commanders and responders Teams and Incident Rules but not Users', () => {
    for (const role of ['commander', 'responder']) {
      const labels = settingsFor([role]);
      expect(labels).toEqual(expect.arrayContaining(['Teams', 'Incident Rules']));
      expect(labels).not.toContain('Users');
    }
  });

  it('hides Users when people sign in through an external provider, and keeps Teams and Incident Rules', () => {
    const labels = settingsFor(['admin'], true);
    expect(labels).not.toContain('Users');
    expect(labels).toEqual(expect.arrayContaining(['Teams', 'Incident Rules']));
    expect(settingsFor(['admin'], false)).toContain('Users');
  });

  it('hides each entry while its settings area is switched off', () => {
    const off = new Set(['settings.users', 'settings.teams', 'settings.rules']);
    const labels = visibleNavigation({ permissions: permissionsFromRoles(['admin']), isEnabled: (feature) => !off.has(feature) }, app).settings.map((entry) => entry.label);
    expect(labels.filter((label) => ['Users', 'Teams', 'Incident Rules'].includes(label))).toEqual([]);
  });

  it('links each entry to its settings page', () => {
    const paths = Object.fromEntries(settingsNavigation.map((entry) => [entry.label, entry.path]));
    expect(paths).toMatchObject({ Users: '/settings/users', Teams: '/settings/teams', 'Incident Rules': '/settings/incident_rules' });
  });
});

describe('homePath', () => {
  it('goes to the topology dashboard when the user can see it', () => {
    expect(homePath(visibleFor(['admin']))).toBe('/topology');
  });

  it('goes to the first visible entry when there is no topology dashboard', () => {
    const navigation = visibleFor(['admin'], (feature) => feature !== 'topology');
    expect(homePath(navigation)).toBe('/health');
  });

  it('falls back to the settings entries when no top-level area is visible', () => {
    expect(homePath({ primary: [], settings: registry.settings })).toBe('/settings/users');
  });

  it('goes to preferences when the user sees no entry at all', () => {
    expect(homePath({ primary: [], settings: [] })).toBe('/preferences');
  });
});
