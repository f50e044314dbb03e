/**
 * WCAG 2 contrast arithmetic for the colour notations our stylesheet uses (hex, rgb(), oklch()), so the palette's
 * readability is checked from the same values the browser paints.
 */

/** Linear-light sRGB channels in 0‥1 and an alpha in 0‥1. */
export interface LinearRgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

function fromGamma(channel: number): number {
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
}

function parseNumber(text: string, percentScale: number): number {
  const trimmed = text.trim();
  if (trimmed === 'none') return 0;
  return trimmed.endsWith('%') ? (Number(trimmed.slice(0, -1)) / 100) * percentScale : Number(trimmed);
}

function parseAlpha(text: string | undefined): number {
  return text === undefined ? 1 : clamp01(parseNumber(text, 1));
}

/** OKLCH (CSS Color 4) to linear sRGB, clipped to the sRGB gamut as Chromium paints it. */
function oklchToLinear(lightness: number, chroma: number, hueDegrees: number): [number, number, number] {
  const hue = (hueDegrees * Math.PI) / 180;
  const a = chroma * Math.cos(hue);
  const b = chroma * Math.sin(hue);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    clamp01(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    clamp01(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    clamp01(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** Parses `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()/rgba()` and `oklch()`; throws on anything else. */
export function parseColor(text: string): LinearRgba {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value);
  if (hex !== null) {
    const digits = hex[1] ?? '';
    const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
    const byte = (index: number) => parseInt(full.slice(index, index + 2), 16) / 255;
    return { r: fromGamma(byte(0)), g: fromGamma(byte(2)), b: fromGamma(byte(4)), a: full.length === 8 ? byte(6) : 1 };
  }
  const fn = /^(rgba?|oklch)\((.*)\)$/.exec(value);
  if (fn !== null) {
    const [main = '', alpha] = (fn[2] ?? '').split('/');
    const parts = main.split(/[\s,]+/).filter((part) => part !== '');
    if (fn[1] === 'oklch') {
      const [l = '0', c = '0', h = '0'] = parts;
      const [r, g, b] = oklchToLinear(parseNumber(l, 1), parseNumber(c, 0.4), parseNumber(h, 1));
      return { r, g, b, a: parseAlpha(alpha) };
    }
    const [r = '0', g = '0', b = '0', legacyAlpha] = parts;
    const channel = (part: string) => fromGamma(clamp01(parseNumber(part, 255) / 255));
    return { r: channel(r), g: channel(g), b: channel(b), a: parseAlpha(alpha ?? legacyAlpha) };
  }
  throw new Error(`Not a colour this check understands: ${text}`);
}

function toGamma(channel: number): number {
  return channel <= 0.0031308 ? channel * 12.92 : 1.055 * channel ** (1 / 2.4) - 0.055;
}

/** Paints `top` over an opaque `bottom` (alpha blending happens on gamma-encoded values, as browsers do). */
export function composite(top: LinearRgba, bottom: LinearRgba): LinearRgba {
  const blend = (upper: number, lower: number) => fromGamma(toGamma(upper) * top.a + toGamma(lower) * (1 - top.a));
  return { r: blend(top.r, bottom.r), g: blend(top.g, bottom.g), b: blend(top.b, bottom.b), a: 1 };
}

export function relativeLuminance({ r, g, b }: LinearRgba): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio (1‥21) of a text colour on a background; a translucent text is painted on it first. */
export function contrastRatio(foreground: LinearRgba, background: LinearRgba): number {
  const text = foreground.a < 1 ? composite(foreground, background) : foreground;
  const lighter = Math.max(relativeLuminance(text), relativeLuminance(background));
  const darker = Math.min(relativeLuminance(text), relativeLuminance(background));
  return (lighter + 0.05) / (darker + 0.05);
}
