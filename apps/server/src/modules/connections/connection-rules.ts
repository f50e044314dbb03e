import type pg from 'pg';
import { connectionUrlRequired, EMAIL_AUTH_METHODS, EMAIL_ENCRYPTION_METHODS, type ConnectionType } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import type { ConnectionRequestBody } from './connection-store';
import { namesOwnDatabase } from './probes/own-database';

/** Per-type rules of spec 002 §3 and §5 that a schema per field cannot say. */
export function validateConnectionForType(input: Partial<ConnectionRequestBody> & { type: ConnectionType }): void {
  if (connectionUrlRequired(input.type) && (input.url === undefined || input.url === null || input.url.trim() === '')) {
    throw errors.validation(`/url This field is required for ${input.type} connections`);
  }
  const properties = input.properties ?? {};
  const numeric = (key: string): void => {
    const value = properties[key];
    if (value !== undefined && !/^\d+$/.test(value)) throw errors.validation(`/properties/${key} This field must be a number`);
  };
  numeric('port');
  if (input.type === 'redis') numeric('db');
  if (input.type === 'email') {
    const encryption = properties.encryptionMethod;
    if (encryption !== undefined && !(EMAIL_ENCRYPTION_METHODS as readonly string[]).includes(encryption)) {
      throw errors.validation(`/properties/encryptionMethod must be one of ${EMAIL_ENCRYPTION_METHODS.join(', ')}`);
    }
    const auth = properties.authMethod;
    if (auth !== undefined && !(EMAIL_AUTH_METHODS as readonly string[]).includes(auth)) {
      throw errors.validation(`/properties/authMethod must be one of ${EMAIL_AUTH_METHODS.join(', ')}`);
    }
  }
  if (input.type === 's3' && (properties.bucket ?? '') === '') throw errors.validation('/properties/bucket This field is required');
}

/** A postgres connection that plainly names this server's database is refused when saved, not only when used. */
export function refuseOwnDatabaseUrl(pool: pg.Pool, input: { type: string; url?: string | null | undefined }): void {
  if (input.type === 'postgres' && typeof input.url === 'string' && namesOwnDatabase(pool, input.url)) throw errors.ownDatabase('url');
}
