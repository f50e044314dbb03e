import type { LogLine } from '@opsdeck/shared';

/** The levels lines are coloured and counted by, most severe first; `other` is a level this page does not know. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'other'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The labels a backend puts a line's level in: the file, Kubernetes and Loki backends write `level`. */
const LEVEL_LABELS = ['level', 'severity', 'lvl', 'loglevel'] as const;

/** What loggers call their levels (syslog, Go, Java, Python, .NET), folded onto the five above. */
const ALIASES: Readonly<Record<string, LogLevel>> = {
  emerg: 'error',
  emergency: 'error',
  alert: 'error',
  panic: 'error',
  fatal: 'error',
  crit: 'error',
  critical: 'error',
  err: 'error',
  error: 'error',
  eror: 'error',
  severe: 'error',
  warn: 'warn',
  warning: 'warn',
  wrn: 'warn',
  notice: 'info',
  info: 'info',
  inf: 'info',
  information: 'info',
  informational: 'info',
  debug: 'debug',
  dbg: 'debug',
  trace: 'debug',
  fine: 'debug',
  finer: 'debug',
  finest: 'debug',
  verbose: 'debug',
};

/** A line's level from its labels, or null when it carries none. */
export function lineLevel(line: Pick<LogLine, 'labels'>): LogLevel | null {
  for (const label of LEVEL_LABELS) {
    const value = line.labels[label];
    if (value !== undefined && value.trim() !== '') return ALIASES[value.trim().toLowerCase()] ?? 'other';
  }
  return null;
}

/**
 * Mid-scale hues: the dark theme mirrors each colour scale around 500 (app/styles.css), so these read the same on a
 * light and on a dark surface, as the health and chart colours do.
 */
export const LEVEL_BAR_CLASSES: Readonly<Record<LogLevel, string>> = {
  error: 'bg-red-500',
  warn: 'bg-amber-500',
  info: 'bg-green-500',
  debug: 'bg-blue-500',
  other: 'bg-gray-400',
};

/**
 * The bar down a line's first cell, drawn as an inset shadow: a border would widen a collapsed-border table past its
 * container by half its width and bring back a sideways scroll.
 */
export const LEVEL_EDGE_CLASSES: Readonly<Record<LogLevel, string>> = {
  error: 'shadow-[inset_4px_0_0_0_var(--color-red-500)]',
  warn: 'shadow-[inset_4px_0_0_0_var(--color-amber-500)]',
  info: 'shadow-[inset_4px_0_0_0_var(--color-green-500)]',
  debug: 'shadow-[inset_4px_0_0_0_var(--color-blue-500)]',
  other: 'shadow-[inset_4px_0_0_0_var(--color-gray-400)]',
};

export const LEVEL_NAMES: Readonly<Record<LogLevel, string>> = { error: 'Error', warn: 'Warning', info: 'Info', debug: 'Debug', other: 'Other level' };
