import { AppError } from '../../platform/errors';
import { ALLOW_LOCAL_DATABASE_PROPERTY } from './probes/local-database';

/** The coded refusals of database targets that a check, scraper or connection test may not reach. */
export const databaseErrors = {
  localDatabase: (field: string) =>
    new AppError(
      400,
      'OD_LOCAL_DATABASE',
      `${field} names a database on Opsdeck's own host (a Unix socket, localhost or a loopback address), which checks and scrapers may not reach`,
      field,
      `Give the database's network address, or ask an admin to set the property ${ALLOW_LOCAL_DATABASE_PROPERTY} to true`,
    ),
} as const;
