import { Fragment, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { parseMarkdown, type Block, type Inline } from './markdown';

/** Turns a link of the doc into an in-app address, or null to keep it as written. */
export type ResolveHref = (href: string) => string | null;

function isSafeExternal(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href) || href.startsWith('#');
}

function renderInline(inlines: readonly Inline[], resolve: ResolveHref): ReactNode {
  return inlines.map((inline, index) => {
    switch (inline.kind) {
      case 'text':
        return <Fragment key={index}>{inline.text}</Fragment>;
      case 'code':
        return (
          <code key={index} className="rounded bg-gray-100 px-1 font-mono text-[0.85em] text-gray-800">
            {inline.text}
          </code>
        );
      case 'strong':
        return <strong key={index}>{renderInline(inline.children, resolve)}</strong>;
      case 'em':
        return <em key={index}>{renderInline(inline.children, resolve)}</em>;
      case 'link': {
        const internal = resolve(inline.href);
        const children = renderInline(inline.children, resolve);
        if (internal !== null) {
          return (
            <Link key={index} to={internal} className="text-blue-700 underline">
              {children}
            </Link>
          );
        }
        // A link to a file of the repository that is not bundled has nowhere to go: keep its text only.
        if (!isSafeExternal(inline.href)) return <Fragment key={index}>{children}</Fragment>;
        return (
          <a key={index} href={inline.href} className="text-blue-700 underline" rel="noreferrer">
            {children}
          </a>
        );
      }
    }
  });
}

const HEADING_CLASSES = ['text-xl font-semibold', 'mt-4 text-lg font-semibold', 'mt-3 text-base font-semibold', 'mt-2 text-sm font-semibold'];

function renderBlock(block: Block, index: number, resolve: ResolveHref): ReactNode {
  switch (block.kind) {
    case 'heading': {
      const level = Math.min(block.level, 4);
      const Tag = `h${level}` as 'h1' | 'h2' | 'h3' | 'h4';
      return (
        <Tag key={index} id={block.id} className={`${HEADING_CLASSES[level - 1] ?? ''} text-gray-900`}>
          {renderInline(block.content, resolve)}
        </Tag>
      );
    }
    case 'paragraph':
      return <p key={index}>{renderInline(block.content, resolve)}</p>;
    case 'code':
      return (
        <pre key={index} className="palette-light overflow-x-auto rounded-md bg-gray-900 p-3 dark:bg-gray-950 font-mono text-xs leading-relaxed text-gray-100">
          <code>{block.text}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, itemIndex) => (
        <li key={itemIndex}>
          {renderInline(item.content, resolve)}
          {item.children !== null && renderBlock(item.children, 0, resolve)}
        </li>
      ));
      return block.ordered ? (
        <ol key={index} className="list-decimal space-y-1 pl-6">
          {items}
        </ol>
      ) : (
        <ul key={index} className="list-disc space-y-1 pl-6">
          {items}
        </ul>
      );
    }
    case 'table':
      return (
        <div key={index} className="overflow-x-auto">
          <table className="min-w-full border-collapse text-left text-xs">
            <thead>
              <tr>
                {block.header.map((cell, cellIndex) => (
                  <th key={cellIndex} className="border border-gray-200 bg-gray-50 px-2 py-1 font-semibold text-gray-800">
                    {renderInline(cell, resolve)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, cellIndex) => (
                    <td key={cellIndex} className="border border-gray-200 px-2 py-1 align-top">
                      {renderInline(cell, resolve)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'quote':
      return (
        <blockquote key={index} className="border-l-4 border-gray-200 pl-3 text-gray-600">
          {block.blocks.map((child, childIndex) => renderBlock(child, childIndex, resolve))}
        </blockquote>
      );
    case 'rule':
      return <hr key={index} className="border-gray-200" />;
  }
}

export interface MarkdownViewProps {
  source: string;
  resolveHref: ResolveHref;
}

export function MarkdownView({ source, resolveHref }: MarkdownViewProps) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <article className="flex flex-col gap-3 text-sm leading-relaxed text-gray-700">{blocks.map((block, index) => renderBlock(block, index, resolveHref))}</article>;
}
