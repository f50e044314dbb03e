/** The search module as the rest of the server sees it: its route, and the search itself for the bench. */
export { searchPlugin } from './search-plugin';
export { search, searchKindResource } from './search-service';
