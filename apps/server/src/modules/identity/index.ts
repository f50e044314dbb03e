/** The identity module as the rest of the server sees it: the user-management routes (invite, update role). */
export { identityPlugin } from './identity-plugin';
