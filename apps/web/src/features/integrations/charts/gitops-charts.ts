import type { ChartDefinition } from './chart-definition';
import { OPSDECK_CHART } from './opsdeck';
import { OPSDECK_AWS_CHART } from './opsdeck-aws';
import { OPSDECK_AZURE_CHART } from './opsdeck-azure';
import { OPSDECK_FLUX_CHART } from './opsdeck-flux';
import { OPSDECK_KUBERNETES_CHART } from './opsdeck-kubernetes';
import { OPSDECK_PROMETHEUS_CHART } from './opsdeck-prometheus';

export type { ChartDefinition } from './chart-definition';

/** The GitOps group of the Add Integration modal, in the order of spec 001 §2.7. */
export const GITOPS_CHARTS: readonly ChartDefinition[] = [
  OPSDECK_AWS_CHART,
  OPSDECK_AZURE_CHART,
  OPSDECK_PROMETHEUS_CHART,
  OPSDECK_FLUX_CHART,
  OPSDECK_KUBERNETES_CHART,
  OPSDECK_CHART,
];
