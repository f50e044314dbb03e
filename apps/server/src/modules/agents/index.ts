/** The agents module as the rest of the server sees it: its routes, and the token maker the demo seed uses. */
export { agentsPlugin } from './agents-plugin';
export { newAgentToken } from './agent-token';
