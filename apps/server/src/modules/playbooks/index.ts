/** The playbooks module as the rest of the server sees it. */
export { playbooksPlugin } from './playbooks-plugin';
export { requestPlaybookRun } from './run-store';
export type { PlaybookTarget } from './types';
export { renderPlaybookCompatibility } from './compatibility-section';
