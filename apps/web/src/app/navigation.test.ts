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
