import { AppError } from '../../platform/errors';

/**
 * The coded errors of scraper specs beyond OD_SCRAPER_SPEC and OD_SCRAPER_KIND (platform/errors.ts): a field this
 * server does not run, and an exec source written by someone who may not run scripts. `details` names the field.
 */
export const scraperErrors = {
  field: (field: string, problem: string, instead: string) =>
    new AppError(400, 'OD_SCRAPER_FIELD', `The scraper spec is not valid: ${field} ${problem}`, field, instead),
  execForbidden: (field: string) =>
    new AppError(
      403,
      'OD_SCRAPER_EXEC_FORBIDDEN',
      'Exec scrapers need the execute permission',
      field,
      'Only administrators may create, change or remove a scraper that runs a script; ask one to make this change',
    ),
};
