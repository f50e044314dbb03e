import { useEffect } from 'react';

const APP_NAME = 'Opsdeck';

/**
 * Names the browser tab after the page, so a user with several Opsdeck tabs open, and their browser history, can
 * tell them apart. Every routed page calls it with its own name; a detail page passes the entity's name once loaded.
 */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} | ${APP_NAME}`;
  }, [page]);
}
