import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { COMPONENT_STATUSES, PLAYBOOK_RUN_STATUSES } from '@opsdeck/shared';
import { SeverityBadge } from '@/components/status/severity-badge';
import { HealthDot } from '@/components/status/health-dot';
import { JobStatusText } from '@/components/job-status/job-status-cell';
import { RunStatusBadge } from '@/features/playbooks/components/runs/run-status-badge';
import { SendStatusBadge } from '@/features/notifications/components/send-status-badge';
import { UptimeText } from '@/features/health/components/uptime-text';
import { summaryItems } from '@/features/topology/components/card-summaries';
import { composite, contrastRatio, parseColor, type LinearRgba } from '@/lib/theme/contrast';

type Palette = ReadonlyMap<string, string>;

/*
 * The stylesheets are read from disk as the build reads them: vitest hands CSS imports (even `?raw`) to tests as empty
 * strings. The web project has no Node typings, so fs comes in through a specifier TypeScript does not resolve.
 */
const FS_MODULE = 'node:fs';
const { readFileSync } = (await import(/* @vite-ignore */ FS_MODULE)) as { readFileSync: (path: string, encoding: 'utf8') => string };
// A path, not a URL: jsdom replaces the global URL class with one Node's fs does not accept.
const readUrl = (url: string) => readFileSync(decodeURIComponent(new URL(url).pathname), 'utf8');
// Through a variable: Vite rewrites `new URL(literal, import.meta.url)` into a served asset path.
const here = import.meta.url;
const appStyles = readUrl(new URL('./styles.css', here).href);
const tailwindTheme = readUrl(import.meta.resolve('tailwindcss/theme.css'));
type ThemeName = 'light' | 'dark';

/** The `--color-*` declarations inside the first block that `selector` opens in `css`. */
function colorsIn(css: string, selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`No "${selector}" block in the stylesheet`);
  const body = css.slice(start, css.indexOf('\n}', start));
  return new Map([...body.matchAll(/--color-([a-z]+(?:-\d+)?):\s*([^;]+);/g)].map((match) => [match[1] ?? '', (match[2] ?? '').trim()]));
}

// Light: Tailwind's own palette with the app's @theme additions; dark: that, overridden by the html.dark block.
const LIGHT: Palette = new Map([...colorsIn(tailwindTheme, '@theme default'), ...colorsIn(appStyles, '@theme')]);
const DARK: Palette = new Map([...LIGHT, ...colorsIn(appStyles, 'html.dark')]);
const PALETTES: Record<ThemeName, Palette> = { light: LIGHT, dark: DARK };

function color(palette: Palette, name: string): LinearRgba {
  const value = palette.get(name);
  if (value === undefined) throw new Error(`The palette has no colour "${name}"`);
  return parseColor(value);
}

/** The colour a utility of `kind` (text, bg) paints with in a palette, from the element's resting classes. */
function utilityColor(element: Element, kind: 'text' | 'bg', palette: Palette): LinearRgba | null {
  for (const token of element.getAttribute('class')?.split(/\s+/) ?? []) {
    const match = new RegExp(`^${kind}-((?:[a-z]+-\\d+)|white|black)(?:/(\\d+))?$`).exec(token);
    if (match === null) continue;
    const base = color(palette, match[1] ?? '');
    return match[2] === undefined ? base : { ...base, a: Number(match[2]) / 100 };
  }
  return null;
}

/**
 * The contrast of an element's text as it is rendered on `surface` (the card or page it sits on): its own background
 * painted over the surface first, when it has one.
 */
function renderedContrast(element: Element, palette: Palette, surface: string): number {
  const text = utilityColor(element, 'text', palette);
  if (text === null) throw new Error(`"${element.outerHTML}" sets no text colour`);
  const under = color(palette, surface);
  const own = utilityColor(element, 'bg', palette);
  const background = own === null ? under : own.a < 1 ? composite(own, under) : own;
  return contrastRatio(text, background);
}

// Badges sit on cards and table rows (white) and on the page itself (gray-50).
const SURFACES = ['white', 'gray-50'] as const;
const THEMES: ThemeName[] = ['light', 'dark'];

/** The element a status component renders (each renders one). */
function rendered(node: ReactElement): Element {
  const element = render(node).container.firstElementChild;
  if (element === null) throw new Error('Nothing was rendered');
  return element;
}

function expectReadable(element: Element, what: string) {
  for (const theme of THEMES) {
    for (const surface of SURFACES) {
      const ratio = renderedContrast(element, PALETTES[theme], surface);
      expect(ratio, `${what} in the ${theme} theme on ${surface}: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
    }
  }
}

describe('the dark palette', () => {
  it('redefines every colour scale the app uses, so no class keeps a light-theme colour in the dark', () => {
    const scales = ['gray', 'red', 'orange', 'amber', 'yellow', 'green', 'blue', 'indigo', 'violet', 'purple'];
    const steps = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950];
    const dark = colorsIn(appStyles, 'html.dark');
    for (const scale of scales) for (const step of steps) expect(dark.has(`${scale}-${step}`), `${scale}-${step}`).toBe(true);
    for (const name of ['white', 'brand-50', 'brand-500', 'brand-600', 'brand-700']) expect(dark.has(name), name).toBe(true);
  });

  it('keeps the light values in the always-dark panels (the sidebar), so their white text stays on a dark ground', () => {
    const kept = colorsIn(appStyles, 'html.dark .palette-light');
    for (const [name, value] of kept) expect(value, name).toBe(LIGHT.get(name));
  });

  it('reads body text, secondary text and table text on cards and on the page', () => {
    for (const theme of THEMES) {
      const palette = PALETTES[theme];
      for (const [text, surface] of [
        ['gray-900', 'gray-50'],
        ['gray-900', 'white'],
        ['gray-700', 'white'],
        ['gray-600', 'gray-100'],
        ['gray-500', 'white'],
        ['gray-500', 'gray-50'],
        ['blue-700', 'white'],
        ['red-600', 'white'],
        ['white', 'blue-600'],
        ['white', 'red-600'],
        ['white', 'brand-600'],
      ] as const) {
        const ratio = contrastRatio(color(palette, text), color(palette, surface));
        expect(ratio, `${text} on ${surface} in the ${theme} theme: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

describe('status colours, as the components render them, in both themes', () => {
  it.each(['critical', 'blocker', 'high', 'medium', 'low', 'info', 'warning'])('reads the %s severity badge', (severity) => {
    expectReadable(rendered(<SeverityBadge severity={severity} />), `the ${severity} severity badge`);
  });

  it.each([...PLAYBOOK_RUN_STATUSES])('reads the %s playbook run badge', (status) => {
    expectReadable(rendered(<RunStatusBadge status={status} />), `the ${status} run badge`);
  });

  it.each(['pending', 'sending', 'sent', 'failed', 'skipped'] as const)('reads the %s notification send badge', (status) => {
    expectReadable(rendered(<SendStatusBadge status={status} />), `the ${status} send badge`);
  });

  it.each(['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED'])('reads the %s job status', (status) => {
    expectReadable(rendered(<JobStatusText status={status} />), `the ${status} job status`);
  });

  it.each([[50], [80], [99.5]])('reads an uptime of %s %% in its health colour', (percentage) => {
    expectReadable(rendered(<UptimeText percentage={percentage} />), `uptime ${percentage}`);
  });

  it('reads the health, incident and insight chips of a topology card', () => {
    const checks = { healthy: 1, unhealthy: 1, warning: 1, unknown: 1 } satisfies Record<(typeof COMPONENT_STATUSES)[number], number>;
    const items = summaryItems('c1', { checks, incidents: { availability: { critical: 1 } }, insights: { security: { high: 1 } } });
    const chips = items.flatMap((item) => item.chips);
    expect(chips.length).toBe(COMPONENT_STATUSES.length + 2);
    for (const chip of chips) {
      const element = document.createElement('span');
      element.className = chip.className;
      expectReadable(element, `the "${chip.label}" chip`);
    }
  });

  it('shows every health dot apart from the card behind it in the dark (3:1 for graphics)', () => {
    for (const status of ['healthy', 'unhealthy', 'warning', 'unknown']) {
      const dot = rendered(<HealthDot status={status} />);
      const fill = utilityColor(dot, 'bg', DARK);
      if (fill === null) throw new Error('The dot has no fill');
      const ratio = contrastRatio(fill, color(DARK, 'white'));
      expect(ratio, `${status} dot: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(3);
    }
  });
});
