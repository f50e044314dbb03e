import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

/**
 * jsdom lacks a few browser APIs that Radix popovers and selects call. These stand-ins do nothing, which is what a
 * browser does for elements that never resize or scroll. Importing this also unmounts rendered trees after each test,
 * since the web project runs without vitest globals.
 */
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { value: NoopResizeObserver, writable: true });
}
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
