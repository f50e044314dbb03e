/** The event queue module as the rest of the server sees it: the retry route and the retention job. */
export { eventsPlugin } from './events-plugin';
