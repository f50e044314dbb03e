import '@/components/test-support/browser-polyfills';
import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupMswServer, whoamiHandler } from '@/test/msw';
import { renderRoutes } from '@/test/render';
import { logsRoutes } from './routes';

let flags: { name: string; value: string }[] = [];

setupMswServer(
  whoamiHandler(() => ['viewer']),
  http.get('*/api/db/properties', () => HttpResponse.json(flags)),
  http.get('*/api/db/components_with_logs', () => HttpResponse.json([])),
);

afterEach(() => {
  flags = [];
});

describe('logs routes', () => {
  it('open the logs page at /logs for a user who may read log backends', async () => {
    renderRoutes(logsRoutes, '/logs');
    expect(await screen.findByRole('heading', { level: 1, name: 'Logs' })).toBeInTheDocument();
  });

  it('close the page while the logs area is switched off', async () => {
    flags = [{ name: 'logs.disable', value: 'true' }];
    renderRoutes(logsRoutes, '/logs');
    expect(await screen.findByText('The logs area is switched off.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Logs' })).not.toBeInTheDocument();
  });
});
