import { createContext, use, type ComponentProps, type ReactNode } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { MarkdownViewProps, ResolveHref } from './markdown-view';

type HastElement = NonNullable<ExtraProps['node']>;
type HastContent = HastElement['children'][number];

function textOf(nodes: readonly HastContent[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.value : node.type === 'element' ? textOf(node.children) : '')).join('');
}

/** The anchor of a heading: its text in lower case, punctuation dropped, words joined by dashes. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

const SAFE_SCHEME = /^(https?|mailto)$/i;

/**
 * Keeps web and mail addresses and relative ones (a doc's links to other docs, `#anchors`); any other scheme
 * (`javascript:`, `data:`, `vbscript:` …) becomes empty, so no link or image can run or embed code.
 */
export function markdownUrl(url: string): string {
  const colon = url.indexOf(':');
  const pathStart = url.search(/[/?#]/);
  // A colon after the path, query or fragment began is part of them, not a scheme.
  if (colon === -1 || (pathStart !== -1 && colon > pathStart)) return url;
  return SAFE_SCHEME.test(url.slice(0, colon)) ? url : '';
}

function isSafeExternal(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href) || href.startsWith('#');
}

const HEADING_CLASSES = ['text-xl font-semibold', 'mt-4 text-lg font-semibold', 'mt-3 text-base font-semibold', 'mt-2 text-sm font-semibold'];

type HeadingProps = ComponentProps<'h1'> & ExtraProps;

/** Levels 5 and 6 render as level 4, the smallest the docs style. */
function heading(level: 1 | 2 | 3 | 4) {
  const Tag = `h${level}` as const;
  return function Heading({ node, id, className, children }: HeadingProps) {
    return (
      // An id or class the source already gives (the GFM footnotes' hidden label) is kept.
      <Tag id={id ?? slugify(textOf(node?.children ?? []))} className={clsx(HEADING_CLASSES[level - 1], 'text-gray-900', className)}>
        {children}
      </Tag>
    );
  };
}

// The mapping below is one constant, so elements keep their identity between renders; the resolver comes by context.
const ResolveHrefContext = createContext<ResolveHref>(() => null);

function MarkdownLink({ href = '', id, children }: ComponentProps<'a'> & ExtraProps) {
  const resolve = use(ResolveHrefContext);
  const internal = href === '' ? null : resolve(href);
  if (internal !== null) {
    return (
      <Link id={id} to={internal} className="text-blue-700 underline">
        {children}
      </Link>
    );
  }
  // A link to a file of the repository that is not bundled, or one whose scheme was dropped, has nowhere to go.
  if (!isSafeExternal(href)) return <>{children}</>;
  return (
    <a id={id} href={href} className="text-blue-700 underline" rel="noreferrer">
      {children}
    </a>
  );
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(4),
  h6: heading(4),
  a: MarkdownLink,
  // Images are shown by their text: a doc has none, and a template preview must not fetch addresses it names.
  img: ({ alt }) => <>{alt}</>,
  code: ({ children }) => <code className="rounded bg-gray-100 px-1 font-mono text-[0.85em] text-gray-800">{children}</code>,
  pre: ({ node }) => (
    <pre className="palette-light overflow-x-auto rounded-md bg-gray-900 p-3 dark:bg-gray-950 font-mono text-xs leading-relaxed text-gray-100">
      {/* The block's own text, not the inline-code styling the `code` mapping gives; the fence's closing newline dropped. */}
      <code>{textOf(node?.children ?? []).replace(/\n$/, '')}</code>
    </pre>
  ),
  ul: ({ children }) => <ul className="list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children, start }) => (
    <ol start={start} className="list-decimal space-y-1 pl-6">
      {children}
    </ol>
  ),
  table: ({ children }) => (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-left text-xs">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-gray-200 bg-gray-50 px-2 py-1 font-semibold text-gray-800">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-gray-200 px-2 py-1 align-top">
      {children}
    </td>
  ),
  blockquote: ({ children }) => <blockquote className="border-l-4 border-gray-200 pl-3 text-gray-600">{children}</blockquote>,
  hr: () => <hr className="border-gray-200" />,
};

const REMARK_PLUGINS = [remarkGfm];

/**
 * CommonMark with GitHub's tables, strikethrough, task lists and autolinks, rendered as React elements. Raw HTML in
 * the source stays text (react-markdown renders it as text unless rehype-raw is added, which it must not be).
 */
export function MarkdownRenderer({ source, resolveHref }: MarkdownViewProps): ReactNode {
  return (
    <article className="flex flex-col gap-3 text-sm leading-relaxed text-gray-700">
      <ResolveHrefContext value={resolveHref}>
        <Markdown remarkPlugins={REMARK_PLUGINS} urlTransform={markdownUrl} components={COMPONENTS}>
          {source}
        </Markdown>
      </ResolveHrefContext>
    </article>
  );
}
