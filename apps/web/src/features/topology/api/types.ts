export type {
  ComponentProperty,
  ComponentPropertyLink,
  ComponentStatus,
  ComponentSummary,
  TopologyComponent,
  TopologyComponentRow,
  TopologyQuery,
  TopologyResponse,
} from '@opsdeck/shared';
