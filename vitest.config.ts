import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'scripts/**/*.test.mjs'],
          // Pure functions without mocks or global state: importing each module once per worker, not once per file.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
          // Only a stuck test should reach this; waits end on their conditions. With both cores busy (load average near
          // 11, as when CI runs its lanes side by side) a test that renders, clicks and waits several times ran past
          // 20 s; this leaves room for a few of the setup file's 20-second waits, while a broken one still fails well
          // within CI.
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/restore-env.ts'],
          testTimeout: 30000,
          hookTimeout: 120000,
          fileParallelism: false,
          // One process imports the server once for all files (per-file isolation re-imported it for each, minutes of
          // CI time); restore-env.ts keeps one file's environment changes from reaching the next.
          isolate: false,
        },
      },
    ],
  },
});
