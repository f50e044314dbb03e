import { AppError } from '../../platform/errors';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX_LENGTH } from './search-text';

/** The coded errors of GET /api/search; `details` names the parameter at fault. */
export const searchErrors = {
  query: (problem: string) =>
    new AppError(400, 'OD_SEARCH_QUERY', `The search text is not valid: ${problem}`, 'q', `Send q as plain text of at most ${SEARCH_TEXT_MAX_LENGTH} characters`),
  limit: (raw: string) =>
    new AppError(400, 'OD_SEARCH_LIMIT', `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}, got '${raw.slice(0, 20)}'`, 'limit', `Leave it out for ${SEARCH_LIMIT_DEFAULT} results`),
};
