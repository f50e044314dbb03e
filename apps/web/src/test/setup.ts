import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';

/**
 * How long findBy* and waitFor keep retrying. Testing Library's default of one second is shorter than a render takes
 * when CI runs several steps side by side on two cores (load averages near 11 made tests that pass alone time out),
 * and at loads near 19 a page's first lazily loaded chunk took more than 10 s to show; a wait still ends as soon as
 * its condition holds, so a quiet machine runs no slower. vitest.config.ts gives the web tests a timeout that leaves
 * room for a few such waits.
 */
const ASYNC_UTIL_TIMEOUT_MS = 20_000;

configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT_MS });

/*
 * Sonner keeps its toasts in one list for the whole file and replays every toast not dismissed to the next Toaster
 * that mounts. A toast whose Toaster was unmounted with its test never times out, so without this it would show up in
 * a later test and vanish in the middle of it, five seconds after that test's Toaster mounted, whenever a loaded
 * machine makes the test that long.
 */
afterEach(() => {
  toast.dismiss();
});

/**
 * Testing Library unmounts what a test rendered by itself only where vitest's globals are on, and the web project runs
 * without them: a tree left mounted kept answering queries and holding timers into the next test of its file. Storage
 * is emptied after the unmount, so what a component writes as it goes does not reach the next test either.
 */
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
