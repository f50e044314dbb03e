import type { DomainPlugin } from './platform/http';

/** Each domain registers its routes as one plugin; the order does not matter. */
export const domainPlugins: DomainPlugin[] = [];
