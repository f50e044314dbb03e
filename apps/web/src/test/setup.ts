import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

/**
 * How long findBy* and waitFor keep retrying. Testing Library's default of one second is shorter than a render takes
 * when CI runs several steps side by side on two cores (load averages near 11 made tests that pass alone time out); a
 * wait still ends as soon as its condition holds, so a quiet machine runs no slower. vitest.config.ts gives the web
 * tests a timeout that leaves room for a few such waits.
 */
const ASYNC_UTIL_TIMEOUT_MS = 10_000;

configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });
