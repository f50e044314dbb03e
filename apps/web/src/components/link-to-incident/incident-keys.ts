/**
 * The root of every incident query key. The incidents feature builds its keys on it, and the dialogs here invalidate
 * it after a write, so a list or detail page that is open elsewhere shows the new incident or evidence.
 */
export const incidentQueryRoot = ['incidents'] as const;
