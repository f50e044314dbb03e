import type { CheckFormValues } from './check-spec-model';

export type SpecMode = 'form' | 'yaml';

/** What the health check's Spec tab holds: the generic fields, the spec as YAML and the same spec as the check form. */
export interface CanaryFormValues {
  name: string;
  namespace: string;
  labels: Record<string, unknown>;
  specMode: SpecMode;
  /** The spec as the YAML editor holds it. */
  spec: Record<string, unknown>;
  /** The spec as the health-check form holds it. */
  check: CheckFormValues;
}
