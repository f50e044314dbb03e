import type fc from 'fast-check';

/**
 * The property tests replay one fixed seed so that a red CI run always reproduces; `FUZZ_SEED=random` explores new
 * cases and `FUZZ_SEED=<n>` replays the seed a failure printed.
 */
const FUZZ_SEED = process.env.FUZZ_SEED ?? '20261122';

export function fuzzRuns(numRuns: number): fc.Parameters<unknown> {
  return FUZZ_SEED === 'random' ? { numRuns } : { numRuns, seed: Number(FUZZ_SEED) };
}
