interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | null {
  const match = VERSION.exec(text.trim());
  if (match === null) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2] ?? 0),
    patch: Number(match[3] ?? 0),
    prerelease: match[4] === undefined ? [] : match[4].split('.'),
  };
}

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const left = a[i];
    const right = b[i];
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    if (left === right) continue;
    const leftNumeric = /^\d+$/.test(left);
    const rightNumeric = /^\d+$/.test(right);
    if (leftNumeric && rightNumeric) return Number(left) - Number(right);
    if (leftNumeric !== rightNumeric) return leftNumeric ? -1 : 1;
    return left < right ? -1 : 1;
  }
  return 0;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePrerelease(a.prerelease, b.prerelease);
}

type Bound = (version: Version) => boolean;

/** `1`, `1.2`, `1.x`, `1.2.*`: the parts written, the first wildcard or missing part ends them. */
function partial(text: string): { version: Version; given: number } | null {
  const parts = text.replace(/^v/, '').split('-')[0]?.split('.') ?? [];
  const numbers: number[] = [];
  for (const part of parts.slice(0, 3)) {
    if (part === 'x' || part === 'X' || part === '*') break;
    if (!/^\d+$/.test(part)) return null;
    numbers.push(Number(part));
  }
  const full = parseVersion(text);
  if (numbers.length === 3 && full !== null) return { version: full, given: 3 };
  return { version: { major: numbers[0] ?? 0, minor: numbers[1] ?? 0, patch: numbers[2] ?? 0, prerelease: [] }, given: numbers.length };
}

function bump(version: Version, at: number): Version {
  if (at <= 0) return { major: version.major + 1, minor: 0, patch: 0, prerelease: [] };
  if (at === 1) return { major: version.major, minor: version.minor + 1, patch: 0, prerelease: [] };
  return { major: version.major, minor: version.minor, patch: version.patch + 1, prerelease: [] };
}

function range(low: Version, high: Version | null): Bound {
  return (v) => compareVersions(v, low) >= 0 && (high === null || compareVersions(v, high) < 0);
}

function term(text: string): Bound {
  const match = /^(=|==|!=|>=|<=|>|<|~>|~|\^)?\s*(.+)$/.exec(text);
  const operator = match?.[1] ?? '=';
  const target = partial(match?.[2] ?? '');
  if (target === null) throw new Error(`'${text}' is not a version constraint`);
  const { version, given } = target;
  const upper = given === 0 ? null : bump(version, given - 1);
  switch (operator) {
    case '=':
    case '==':
      return given === 3 ? (v) => compareVersions(v, version) === 0 : range(version, upper);
    case '!=':
      return given === 3 ? (v) => compareVersions(v, version) !== 0 : (v) => !range(version, upper)(v);
    case '>':
      return given === 3 ? (v) => compareVersions(v, version) > 0 : (v) => upper !== null && compareVersions(v, upper) >= 0;
    case '>=':
      return (v) => compareVersions(v, version) >= 0;
    case '<':
      return (v) => compareVersions(v, version) < 0;
    case '<=':
      return given === 3 ? (v) => compareVersions(v, version) <= 0 : (v) => upper === null || compareVersions(v, upper) < 0;
    case '~':
    case '~>':
      return range(version, bump(version, given >= 2 ? 1 : 0));
    default: {
      // ^: changes that keep the left-most non-zero part.
      const at = version.major > 0 || given <= 1 ? 0 : version.minor > 0 || given <= 2 ? 1 : 2;
      return range(version, bump(version, at));
    }
  }
}

/**
 * Whether `version` satisfies `constraint` in the syntax Mission Control's `SemverCompare` reads: comparisons
 * (`=`, `!=`, `>`, `>=`, `<`, `<=`), `~` and `^` ranges, `x`/`*` wildcards, hyphen ranges (`1.2 - 1.4`), terms joined
 * by commas or spaces (all must hold) and alternatives joined by `||`. Pre-releases are only matched by constraints
 * that name one. Throws on text that is neither.
 */
export function semverSatisfies(constraint: string, version: string): boolean {
  const parsed = parseVersion(version);
  if (parsed === null) throw new Error(`'${version}' is not a semantic version`);
  const alternatives = constraint.split('||').map((alternative) => alternative.trim());
  return alternatives.some((alternative) => {
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(alternative);
    const terms = hyphen === null ? alternative.replace(/([<>=~^!]+)\s+/g, '$1').split(/[\s,]+/).filter((t) => t !== '') : [`>=${hyphen[1]}`, `<=${hyphen[2]}`];
    if (terms.length === 0) terms.push('*');
    const bounds = terms.map(term);
    if (parsed.prerelease.length > 0 && !terms.some((t) => t.includes('-'))) return false;
    return bounds.every((bound) => bound(parsed));
  });
}
