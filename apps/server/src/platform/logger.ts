import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from './config';
import { wantsColour } from './logger-format';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The message followed by the request facts Fastify logs as nested objects, so that a request reads as
 * `incoming request GET /healthz [req-1]` and `request completed 200 3 ms [req-1]` on one line each.
 */
export function describeEvent(log: Record<string, unknown>, messageKey: string): string {
  const parts = [text(log[messageKey]) ?? ''];
  const method = text(field(log.req, 'method'));
  const url = text(field(log.req, 'url'));
  if (method !== undefined && url !== undefined) parts.push(`${method} ${url}`);
  const status = text(field(log.res, 'statusCode'));
  if (status !== undefined) parts.push(status);
  if (typeof log.responseTime === 'number') parts.push(`${log.responseTime.toFixed(0)} ms`);
  const reqId = text(log.reqId);
  if (reqId !== undefined) parts.push(`[${reqId}]`);
  return parts.filter((part) => part !== '').join(' ');
}

/** Fastify's logger: JSON lines, or readable lines for a terminal (config.logFormat). */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): LoggerOptions {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
  };
  if (config.logFormat === 'json') return options;
  return {
    ...options,
    // In this thread rather than as a pino transport: no worker thread to start and keep, and a line is written
    // before the next console.log (sync), so the start-up banner never lands in the middle of the log.
    stream: pretty({
      colorize: wantsColour(process.stdout.isTTY === true, process.env),
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,req,res,responseTime,reqId',
      singleLine: true,
      messageFormat: describeEvent,
    }),
  };
}
