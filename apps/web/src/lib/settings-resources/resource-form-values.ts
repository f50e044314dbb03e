/** What the generic settings form holds: the spec as the YAML editor holds it. */
export interface ResourceFormValues {
  name: string;
  namespace: string;
  labels: Record<string, unknown>;
  spec: Record<string, unknown>;
}
