/** The catalog module as the rest of the server sees it: its routes. */
export { catalogPlugin } from './catalog-plugin';
