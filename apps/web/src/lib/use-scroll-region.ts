import { useEffect, useRef, useState, type RefObject } from 'react';

/** The props that make a box which scrolls reachable by keyboard (WCAG 2.1.1), named for a screen reader. */
export interface ScrollRegionProps {
  tabIndex?: 0;
  role?: 'region';
  'aria-label'?: string;
}

/**
 * Whether the box overflows, as the props to spread on it: a Tab stop and a named region only while it really
 * scrolls, so a short table adds no stop that leads nowhere. Watches the box and its content for size changes.
 */
export function useScrollRegion(ref: RefObject<HTMLElement | null>, label: string): ScrollRegionProps {
  const [scrolls, setScrolls] = useState(false);
  const watched = useRef<{ box: HTMLElement; observer: ResizeObserver } | null>(null);
  // After every render: the box may mount later than its owner (a list shown once it has lines) or be replaced.
  useEffect(() => {
    const box = ref.current;
    if (watched.current?.box === box) return;
    watched.current?.observer.disconnect();
    watched.current = null;
    if (box === null || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of Array.from(box.children)) observer.observe(child);
    watched.current = { box, observer };
    measure();
  });
  useEffect(
    () => () => {
      watched.current?.observer.disconnect();
      watched.current = null;
    },
    [],
  );
  return scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {};
}
