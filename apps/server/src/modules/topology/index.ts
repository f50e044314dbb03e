/** The topology module as the rest of the server sees it. */
export { topologyPlugin } from './topology-plugin';
export { runTopology, type TopologyRunOutcome } from './run-topology';
export { DEFAULT_TOPOLOGY_SCHEDULE } from './topology-scheduler';
export { TOPOLOGY_BUILD_SETTING, type TopologyRow } from './types';
export { renderTopologyCompatibility } from './compatibility-section';
