import { version } from '../../package.json';

/** The web app's own version, taken from its package.json at build time. */
export const FRONTEND_VERSION: string = version;
