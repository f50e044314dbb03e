import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { authorizeMetrics, bearerMatches } from './metrics-access';

const TOKEN = 'the-metrics-token-of-this-test';

function refusal(run: () => void): { status: number; code: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.statusCode, code: error.code };
  }
}

describe('the metrics token', () => {
  it('matches only the exact token after Bearer (the scheme in any case)', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}-`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.toUpperCase()}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});

describe('who may read the metrics', () => {
  it('answers 404 on the main listener unless a token is set, whatever the caller sends', () => {
    expect(refusal(() => authorizeMetrics({ metricsToken: null, metricsPort: null }, 'main', `Bearer ${TOKEN}`))).toEqual({ status: 404, code: 'OD_METRICS_UNAVAILABLE' });
    expect(refusal(() => authorizeMetrics({ metricsToken: null, metricsPort: 9464 }, 'main', undefined))).toEqual({ status: 404, code: 'OD_METRICS_UNAVAILABLE' });
  });

  it('asks for the token wherever one is set, and lets the metrics port serve without one otherwise', () => {
    expect(refusal(() => authorizeMetrics({ metricsToken: TOKEN, metricsPort: null }, 'main', undefined))).toEqual({ status: 401, code: 'OD_METRICS_TOKEN' });
    expect(refusal(() => authorizeMetrics({ metricsToken: TOKEN, metricsPort: 9464 }, 'metrics-port', 'Bearer nope'))).toEqual({ status: 401, code: 'OD_METRICS_TOKEN' });
    expect(refusal(() => authorizeMetrics({ metricsToken: TOKEN, metricsPort: null }, 'main', `Bearer ${TOKEN}`))).toBeNull();
    expect(refusal(() => authorizeMetrics({ metricsToken: null, metricsPort: 9464 }, 'metrics-port', undefined))).toBeNull();
  });
});
