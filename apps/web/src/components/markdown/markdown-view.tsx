import { lazy, Suspense } from 'react';

/** Turns a link of the doc into an in-app address, or null to keep it as written. */
export type ResolveHref = (href: string) => string | null;

export interface MarkdownViewProps {
  source: string;
  resolveHref: ResolveHref;
}

// The Markdown parser and its GFM extensions are a chunk of their own, loaded the first time Markdown shows.
const MarkdownRenderer = lazy(() => import('./markdown-renderer').then((module) => ({ default: module.MarkdownRenderer })));

/** Markdown rendered as React elements, never as HTML strings, so nothing in the source can inject markup. */
export function MarkdownView(props: MarkdownViewProps) {
  return (
    <Suspense
      fallback={
        <article aria-busy="true" className="text-sm leading-relaxed whitespace-pre-wrap text-gray-700">
          {props.source}
        </article>
      }
    >
      <MarkdownRenderer {...props} />
    </Suspense>
  );
}
