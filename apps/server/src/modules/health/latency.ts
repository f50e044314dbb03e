/**
 * Reads a quantile from a rollup histogram the way check_duration_percentile does in SQL (migration 0005): linear
 * inside the slot holding it, the open last slot ending at the range's duration_max. Done here so a summary of
 * thousands of checks does not call a PL/pgSQL function three times per check.
 */
export function histogramPercentile(bounds: readonly number[], histogram: readonly number[], q: number, durationMax: number | null): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const target = q * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i += 1) {
    const n = histogram[i] ?? 0;
    if (n > 0 && seen + n >= target) {
      const lower = i === 0 ? 0 : (bounds[i - 1] ?? 0);
      let upper = i < bounds.length ? (bounds[i] ?? lower) : Math.max(durationMax ?? lower, lower);
      if (durationMax !== null && durationMax >= lower && durationMax < upper) upper = durationMax;
      return Math.round(lower + ((upper - lower) * (target - seen)) / n);
    }
    seen += n;
  }
  return durationMax;
}
