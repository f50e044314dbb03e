import type { CheckFormValues } from './check-spec-model';

export type SpecMode = 'form' | 'yaml';

export interface ResourceFormValues {
  name: string;
  namespace: string;
  labels: Record<string, unknown>;
  specMode: SpecMode;
  /** The spec as the YAML editor holds it. */
  spec: Record<string, unknown>;
  /** The spec as the health-check form holds it. */
  check: CheckFormValues;
}
