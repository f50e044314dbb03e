const DURATION_UNITS_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Go-style durations as the canary specs write them ('500ms', '30s', '1h30m', '2d'); a bare number is milliseconds.
 * Returns null for text that is not a duration so callers can report the field.
 */
export function parseDurationMs(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const unit = DURATION_UNITS_MS[match[2] ?? ''];
    if (unit === undefined) return null;
    total += Number(match[1]) * unit;
    consumed = pattern.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : null;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1000,
  kb: 1000,
  m: 1000 ** 2,
  mb: 1000 ** 2,
  g: 1000 ** 3,
  gb: 1000 ** 3,
  t: 1000 ** 4,
  tb: 1000 ** 4,
  ki: 1024,
  kib: 1024,
  mi: 1024 ** 2,
  mib: 1024 ** 2,
  gi: 1024 ** 3,
  gib: 1024 ** 3,
  ti: 1024 ** 4,
  tib: 1024 ** 4,
};

/** '10MB', '1Gi', '512' (bytes). Returns null for anything else. */
export function parseSizeBytes(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (match === null) return null;
  const unit = SIZE_UNITS[(match[2] ?? '').toLowerCase()];
  return unit === undefined ? null : Number(match[1]) * unit;
}
