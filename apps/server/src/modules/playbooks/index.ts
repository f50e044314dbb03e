/** The playbooks module as the rest of the server sees it. */
export { playbooksPlugin } from './playbooks-plugin';
export { offersTargets, requestPlaybookRun } from './run-store';
export { parsePlaybookSpec } from './spec';
export type { PlaybookTarget } from './types';
export { renderPlaybookCompatibility } from './compatibility-section';
