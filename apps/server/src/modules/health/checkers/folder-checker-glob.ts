/** Glob characters: a path segment holding one is a pattern. */
export const GLOB_CHARS = /[*?[]/;

/** One path segment of a glob as a regular expression: `*` and `?` never cross a `/`, `[…]` is a class. */
export function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i] ?? '';
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end === -1) source += '\\[';
      else {
        source += `[${segment.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Splits `/var/log/**\/*.gz` into the fixed folder to start from and the pattern segments below it. */
export function splitGlob(pattern: string): { base: string; segments: string[] } {
  const parts = pattern.split('/');
  const first = parts.findIndex((part) => GLOB_CHARS.test(part));
  if (first === -1) return { base: pattern, segments: [] };
  const base = parts.slice(0, first).join('/');
  return { base: base === '' ? (pattern.startsWith('/') ? '/' : '.') : base, segments: parts.slice(first) };
}
