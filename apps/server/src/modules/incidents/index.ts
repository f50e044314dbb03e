/** The incidents module as the rest of the server sees it: its routes. */
export { incidentsPlugin } from './incidents-plugin';
