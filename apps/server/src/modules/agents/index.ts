/** The agents module as the rest of the server sees it: its routes. */
export { agentsPlugin } from './agents-plugin';
