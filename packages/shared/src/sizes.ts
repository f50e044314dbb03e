const SIZE_UNITS: Readonly<Record<string, number>> = {
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

/** A size as canary specs write it: '10MB', '1Gi', '512' (bytes). Null for anything else. */
export function parseSizeBytes(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (match === null) return null;
  const suffix = (match[2] ?? '').toLowerCase();
  const unit = Object.hasOwn(SIZE_UNITS, suffix) ? SIZE_UNITS[suffix] : undefined;
  return unit === undefined ? null : Number(match[1]) * unit;
}
