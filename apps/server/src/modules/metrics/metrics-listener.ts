import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, errors } from '../../platform/errors';
import type { Config } from '../../platform/config';
import type { Metrics } from '../../platform/metrics';
import { authorizeMetrics } from './metrics-access';

export interface MetricsListenerHandle {
  /** http://host:port of the listener. */
  url: string;
  port: number;
  close(): Promise<void>;
}

function sendError(response: ServerResponse, error: AppError): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (error.statusCode === 401) headers['www-authenticate'] = 'Bearer';
  response.writeHead(error.statusCode, headers).end(JSON.stringify(error.toBody()));
}

/**
 * The second listener of OPSDECK_METRICS_PORT: plain node:http serving GET /metrics and nothing else, so binding it
 * where a scraper reaches it (a pod IP) never exposes the console's API, sessions or web app there.
 */
export async function startMetricsListener(
  config: Pick<Config, 'metricsToken' | 'metricsPort' | 'metricsHost'>,
  metrics: Metrics,
  onError: (error: unknown) => void,
): Promise<MetricsListenerHandle> {
  const server: Server = createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      sendError(response, errors.routeNotFound(request.method ?? 'GET', pathname ?? '/'));
      return;
    }
    try {
      authorizeMetrics(config, 'metrics-port', request.headers.authorization);
    } catch (error) {
      if (error instanceof AppError) sendError(response, error);
      else throw error;
      return;
    }
    metrics.render().then(
      (body) => {
        response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        onError(error);
        sendError(response, errors.internal());
      },
    );
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort ?? 0, config.metricsHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
