import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../platform/errors';
import type { Config } from '../../platform/config';

/** The coded answers of /metrics when it is not served here or the caller lacks the token. */
export const metricsErrors = {
  unavailable: (hint: string) => new AppError(404, 'OD_METRICS_UNAVAILABLE', 'Metrics are not served on this listener', null, hint),
  token: () =>
    new AppError(401, 'OD_METRICS_TOKEN', 'The metrics token is missing or wrong', null, 'Send Authorization: Bearer <OPSDECK_METRICS_TOKEN>'),
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether an Authorization header carries the token. Both sides are hashed first, so the comparison is constant-time
 * and of equal length whatever the caller sent: neither the token's characters nor its length leak through timing.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const given = match?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

export type MetricsListener = 'main' | 'metrics-port';

/**
 * Who may read the metrics on a listener: the main listener serves them only with a token (anyone reaching the
 * console could otherwise read them); the metrics port serves them to whoever reaches it, with the token too when one
 * is set. Throws the coded error to answer, or returns when the request may read.
 */
export function authorizeMetrics(config: Pick<Config, 'metricsToken' | 'metricsPort'>, listener: MetricsListener, authorization: string | undefined): void {
  if (listener === 'main' && config.metricsToken === null) {
    throw metricsErrors.unavailable(
      config.metricsPort === null
        ? 'Set OPSDECK_METRICS_TOKEN (scrape with a Bearer token) or OPSDECK_METRICS_PORT (a separate listener) to serve /metrics'
        : `Metrics are served on the metrics port (OPSDECK_METRICS_PORT=${config.metricsPort}), not on this one`,
    );
  }
  if (config.metricsToken !== null && !bearerMatches(authorization, config.metricsToken)) throw metricsErrors.token();
}
