import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A page loaded in its own chunk the first time it renders, so the first screen does not wait for the code of every
 * area. Pages are named exports; React.lazy wants a default one.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await load() }));
}
