import '@/components/test-support/browser-polyfills';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { authModeHandler, setupMswServer, whoamiHandler } from '@/test/msw';
import { renderApp } from '@/test/render-app';
import { areaForPath } from './feature-gate';
import { primaryNavigation, settingsNavigation, type NavigationEntry } from './navigation';

let properties: { name: string; value: string }[] = [];
let unhandled: string[] = [];

const server = setupMswServer(
  whoamiHandler(() => ['admin']),
  http.get('/api/db/properties', () => HttpResponse.json(properties)),
  http.get('/api/version', () => HttpResponse.json({ version: '2.3.4' })),
  authModeHandler(),
);

beforeAll(() => {
  server.events.on('request:unhandled', ({ request }) => {
    unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
  });
});
beforeEach(() => {
  properties = [];
  unhandled = [];
});

const AREAS: readonly NavigationEntry[] = [...primaryNavigation, ...settingsNavigation];

describe('feature flags in the router', () => {
  for (const entry of AREAS) {
    for (const path of [entry.path, `${entry.path}/44444444-4444-4444-8444-444444444444`]) {
      it(`shows the switched-off notice at ${path} when ${entry.feature}.disable is true, and never loads the page's data`, async () => {
        properties = [{ name: `${entry.feature}.disable`, value: 'true' }];
        renderApp(path);
        expect(await screen.findByText(`The ${entry.feature} area is switched off.`)).toBeInTheDocument();
        expect(unhandled).toEqual([]);
      });
    }
  }

  it('closes a settings page whose parent area is switched off (health.disable closes Health Checks)', async () => {
    properties = [{ name: 'health.disable', value: 'true' }];
    renderApp('/settings/canaries');
    expect(await screen.findByText('The settings.health area is switched off.')).toBeInTheDocument();
  });

  it('still shows an area whose flag is off for another area', async () => {
    properties = [{ name: 'settings.connections.disable', value: 'true' }];
    renderApp('/settings/feature-flags');
    expect(await screen.findByRole('heading', { name: 'Feature Flags' })).toBeInTheDocument();
    expect(screen.queryByText(/area is switched off/)).not.toBeInTheDocument();
  });
});

describe('areaForPath', () => {
  it('finds the area of a page and of every page below it, but not of a path that only starts with the same letters', () => {
    expect(areaForPath('/health')?.feature).toBe('health');
    expect(areaForPath('/settings/canaries/abc/')?.feature).toBe('settings.health');
    expect(areaForPath('/healthy')).toBeUndefined();
    expect(areaForPath('/preferences')).toBeUndefined();
  });

  it('prefers the longest matching entry', () => {
    const entries = [
      { ...AREAS[0], path: '/settings', feature: 'settings.users' },
      { ...AREAS[0], path: '/settings/teams', feature: 'settings.teams' },
    ] as NavigationEntry[];
    expect(areaForPath('/settings/teams/1', entries)?.feature).toBe('settings.teams');
    expect(areaForPath('/settings/other', entries)?.feature).toBe('settings.users');
  });
});
