import type { Database } from '../db/database';
import type { DomainPlugin } from '../platform/http';
import { Executor } from './execute';
import { dataApiHandlers } from './handlers';
import { errorResponder } from './respond';
import { SchemaCache } from './schema-cache';
import { writeHooksFor } from './write-hooks';

const caches = new WeakMap<Database, SchemaCache>();

/** The schema cache serving a database, so tests (and admin tooling) can `reload()` it after DDL. */
export function schemaCacheFor(db: Database): SchemaCache | undefined {
  return caches.get(db);
}

/** `/api/db`: each route is a handler composed of the parse, plan, execute and respond stages (handlers.ts). */
export const dataApiPlugin: DomainPlugin = {
  name: 'data-api',
  async register(app, context) {
    const cache = new SchemaCache(context.db.pool);
    await cache.reload();
    caches.set(context.db, cache);
    const { handleRead, handleInsert, handleUpdate, handleDelete, handleCall } = dataApiHandlers({
      cache,
      executor: new Executor(context.db.pool, context.db.mode === 'postgres'),
      hooks: writeHooksFor(context.db),
      bus: context.bus,
    });

    // The body is parsed by the parse stage rather than by Fastify so that malformed JSON answers PostgREST's PGRST102.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(['application/json', 'application/vnd.pgrst.object+json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    app.setErrorHandler(errorResponder(cache));

    const config = { permission: 'authenticated' as const };
    const hide = { hide: true };
    app.get('/api/db/:relation', { config, schema: hide }, handleRead);
    app.post('/api/db/:relation', { config, schema: hide }, handleInsert);
    app.patch('/api/db/:relation', { config, schema: hide }, handleUpdate);
    app.delete('/api/db/:relation', { config, schema: hide }, handleDelete);
    app.get('/api/db/rpc/:function', { config, schema: hide }, handleCall);
    app.post('/api/db/rpc/:function', { config, schema: hide }, handleCall);
  },
};
