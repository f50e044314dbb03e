/** The health module as the rest of the server sees it: its routes, and the canary sync the demo seed runs. */
export { healthPlugin } from './health-plugin';
export { syncCanaryChecks } from './canary-sync';
