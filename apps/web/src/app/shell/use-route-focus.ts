import { useEffect, useRef } from 'react';

/** How long a new page may take to show its heading before the focus is left where it is. */
const HEADING_WAIT_MS = 5_000;

/**
 * Moves the focus to the new page's main heading after a change of path (#36), as a full page load would put a
 * screen-reader user at the top of the page: otherwise it stays on a palette button, a drawer link or the body.
 * Focus already inside the page (a tab, a field) or in a dialog the page opened is left alone, and so is a change of
 * the query alone (filters, sorting).
 */
export function useRouteFocus(pathname: string): void {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const deadline = performance.now() + HEADING_WAIT_MS;
    let frame = 0;
    const moveFocus = () => {
      const main = document.getElementById('main');
      const active = document.activeElement;
      if (main === null) return;
      if (active !== null && active !== document.body && (main.contains(active) || active.closest('[role="dialog"]') !== null)) return;
      const heading = main.querySelector<HTMLElement>('h1');
      if (heading === null) {
        if (performance.now() < deadline) frame = requestAnimationFrame(moveFocus);
        return;
      }
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    };
    frame = requestAnimationFrame(moveFocus);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}
