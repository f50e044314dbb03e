import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { MarkdownRenderer } from './markdown-renderer';
import { MarkdownView, type ResolveHref } from './markdown-view';

const keepAsWritten: ResolveHref = () => null;

function renderMarkdown(source: string, resolveHref: ResolveHref = keepAsWritten) {
  const { container } = renderWithProviders(<MarkdownRenderer source={source} resolveHref={resolveHref} />);
  const article = container.querySelector('article');
  if (article === null) throw new Error('no article rendered');
  return article;
}

describe('MarkdownView', () => {
  it('renders headings with anchors, paragraphs joined across lines, fenced code and tables', () => {
    const article = renderMarkdown(['# Run it', '', 'One command', 'starts it.', '', '```sh', 'npm start', '```', '', '| A | B |', '| --- | --- |', '| `x` | [y](z.md) |'].join('\n'), (href) => (href === 'z.md' ? '/docs/z' : null));
    expect([...article.children].map((element) => element.tagName)).toEqual(['H1', 'P', 'PRE', 'DIV']);
    expect(screen.getByRole('heading', { level: 1, name: 'Run it' })).toHaveAttribute('id', 'run-it');
    expect(article.querySelector('p')).toHaveTextContent('One command starts it.');
    expect(article.querySelector('pre code')?.textContent).toBe('npm start');
    const cells = within(screen.getByRole('table')).getAllByRole('cell');
    expect(cells[0]?.querySelector('code')).toHaveTextContent('x');
    expect(within(cells[1] ?? article).getByRole('link', { name: 'y' })).toHaveAttribute('href', '/docs/z');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['A', 'B']);
  });

  it('keeps a list item going over lines at the left margin and nests an indented list', () => {
    const article = renderMarkdown(['- **Key** is', 'kept outside.', '  - nested', '- second'].join('\n'));
    const list = article.querySelector(':scope > ul');
    const items = list?.querySelectorAll(':scope > li') ?? [];
    expect(items).toHaveLength(2);
    expect(items[0]?.querySelector('strong')).toHaveTextContent('Key');
    expect(items[0]?.firstChild?.textContent).toBe('Key');
    expect(items[0]?.querySelector(':scope > ul > li')).toHaveTextContent('nested');
    expect(items[0]).toHaveTextContent(/^Key is kept outside\.\s*nested$/);
    expect(items[1]).toHaveTextContent('second');
  });

  it('renders level 5 and 6 headings as level 4, the smallest the docs style', () => {
    renderMarkdown('##### Deep heading');
    expect(screen.getByRole('heading', { level: 4, name: 'Deep heading' })).toHaveAttribute('id', 'deep-heading');
  });

  it('leaves markup in the text as text', () => {
    const article = renderMarkdown('<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> inline.');
    expect(article.querySelector('script, img')).toBeNull();
    expect(article).toHaveTextContent('<script>alert(1)</script>');
    expect(article).toHaveTextContent('A <img src=x onerror=alert(1)> inline.');
  });

  it('drops links whose scheme is not http, https or mailto, keeping their text', () => {
    renderMarkdown('[one](javascript:alert(1)) [two](JaVaScRiPt:alert(1)) [three](data:text/html,x) [four](<java\tscript:alert(1)>) [five](&#106;avascript:alert(1))');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText(/one two three four five/)).toBeInTheDocument();
  });

  it('keeps web, mail and anchor links, and shows an image by its text without loading it', () => {
    const article = renderMarkdown('[web](https://example.com) [mail](mailto:ops@example.com) [here](#run-it) ![a diagram](https://example.com/x.png)');
    expect(screen.getByRole('link', { name: 'web' })).toHaveAttribute('href', 'https://example.com');
    expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute('href', 'mailto:ops@example.com');
    expect(screen.getByRole('link', { name: 'here' })).toHaveAttribute('href', '#run-it');
    expect(article.querySelector('img')).toBeNull();
    expect(article).toHaveTextContent('a diagram');
  });

  it('sends the links the resolver knows inside the app and keeps other relative links as text', () => {
    renderMarkdown('[security](security.md) and [source](../apps/server/src/app.ts)', (href) => (href === 'security.md' ? '/docs/security' : null));
    expect(screen.getByRole('link', { name: 'security' })).toHaveAttribute('href', '/docs/security');
    expect(screen.queryByRole('link', { name: 'source' })).toBeNull();
    expect(screen.getByText(/and source/)).toBeInTheDocument();
  });

  it('loads the renderer on first use and shows the source meanwhile', async () => {
    renderWithProviders(<MarkdownView source="## Loaded" resolveHref={keepAsWritten} />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Loaded' })).toBeInTheDocument();
  });
});
