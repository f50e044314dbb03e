import { afterAll } from 'vitest';

// Server test files share one process (no per-file isolation, which would re-import the server for every file): a
// file that changes process.env and restores it carelessly (`= undefined` stores the string 'undefined') must not
// change the next file's configuration.
const snapshot = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) {
    if (!(name in snapshot)) Reflect.deleteProperty(process.env, name);
  }
  Object.assign(process.env, snapshot);
});
