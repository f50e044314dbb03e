/** Runs first in every sandboxed script: it turns the JSON the host handed over into global variables. */
export const GLOBALS_PRELUDE = `
(function (global) {
  var input = JSON.parse(global.__opsdeckInput);
  delete global.__opsdeckInput;
  for (var name in input) global[name] = input[name];
})(globalThis);
`;

/** Whether a script uses `_`: the helpers below cost most of a run to define, so only those scripts get them. */
export function usesUnderscore(source: string): boolean {
  return /(^|[^\w$.])_\s*[.([]/.test(source);
}

/**
 * `_`, the collection helpers canary-checker's interpreter offers (Underscore's names and argument order: collection
 * first, then the function, which gets value, key and collection). Written for this server; ES5 so any published
 * script reads it the same way.
 */
export const UNDERSCORE_PRELUDE = `
(function (global) {
  function isArrayLike(value) { return Array.isArray(value) || typeof value === 'string'; }
  function keysOf(value) { return value === null || typeof value !== 'object' ? [] : Object.keys(value); }
  function iteratee(fn) {
    if (typeof fn === 'function') return fn;
    if (fn === undefined || fn === null) return function (value) { return value; };
    if (typeof fn === 'object') return function (value) { return matches(value, fn); };
    return function (value) { return value === null || value === undefined ? undefined : value[fn]; };
  }
  function matches(value, attributes) {
    if (value === null || typeof value !== 'object') return false;
    for (var key in attributes) if (value[key] !== attributes[key]) return false;
    return true;
  }
  function each(list, fn) {
    if (list === null || list === undefined) return list;
    if (isArrayLike(list)) { for (var i = 0; i < list.length; i++) fn(list[i], i, list); }
    else { var keys = keysOf(list); for (var j = 0; j < keys.length; j++) fn(list[keys[j]], keys[j], list); }
    return list;
  }
  function map(list, fn) { var f = iteratee(fn), out = []; each(list, function (v, k, l) { out.push(f(v, k, l)); }); return out; }
  function filter(list, fn) { var f = iteratee(fn), out = []; each(list, function (v, k, l) { if (f(v, k, l)) out.push(v); }); return out; }
  function find(list, fn) { var f = iteratee(fn), found; var done = false; each(list, function (v, k, l) { if (!done && f(v, k, l)) { found = v; done = true; } }); return found; }
  function values(list) { return map(list, function (v) { return v; }); }
  function groupWith(list, fn, place) { var f = iteratee(fn), out = {}; each(list, function (v, k, l) { place(out, f(v, k, l), v); }); return out; }
  function flatten(list, shallow) {
    var out = [];
    each(list, function (v) {
      if (Array.isArray(v)) { var inner = shallow ? v : flatten(v, false); for (var i = 0; i < inner.length; i++) out.push(inner[i]); }
      else out.push(v);
    });
    return out;
  }
  function contains(list, value) { return values(list).indexOf(value) >= 0; }
  function extreme(list, fn, better) {
    var f = iteratee(fn), best, bestScore;
    each(list, function (v, k, l) { var score = f(v, k, l); if (bestScore === undefined || better(score, bestScore)) { best = v; bestScore = score; } });
    return best;
  }

  global._ = {
    each: each, forEach: each, map: map, collect: map, filter: filter, select: filter, find: find, detect: find,
    values: values, keys: keysOf, flatten: flatten, contains: contains, includes: contains, include: contains,
    reject: function (list, fn) { var f = iteratee(fn); return filter(list, function (v, k, l) { return !f(v, k, l); }); },
    reduce: function (list, fn, memo) {
      var started = arguments.length > 2, acc = memo;
      each(list, function (v, k, l) { if (!started) { acc = v; started = true; } else acc = fn(acc, v, k, l); });
      return acc;
    },
    some: function (list, fn) { return find(list, iteratee(fn)) !== undefined; },
    every: function (list, fn) { var f = iteratee(fn); return filter(list, function (v, k, l) { return !f(v, k, l); }).length === 0; },
    where: function (list, attributes) { return filter(list, attributes); },
    findWhere: function (list, attributes) { return find(list, attributes); },
    pluck: function (list, key) { return map(list, function (v) { return v === null || v === undefined ? undefined : v[key]; }); },
    pairs: function (object) { return map(keysOf(object), function (k) { return [k, object[k]]; }); },
    object: function (list, vals) { var out = {}; each(list, function (v, i) { if (vals) out[v] = vals[i]; else out[v[0]] = v[1]; }); return out; },
    groupBy: function (list, fn) { return groupWith(list, fn, function (out, key, v) { (out[key] = out[key] || []).push(v); }); },
    countBy: function (list, fn) { return groupWith(list, fn, function (out, key) { out[key] = (out[key] || 0) + 1; }); },
    indexBy: function (list, fn) { return groupWith(list, fn, function (out, key, v) { out[key] = v; }); },
    sortBy: function (list, fn) {
      var f = iteratee(fn);
      return map(list, function (v, k, l) { return { v: v, s: f(v, k, l) }; })
        .sort(function (a, b) { return a.s < b.s ? -1 : a.s > b.s ? 1 : 0; })
        .map(function (e) { return e.v; });
    },
    uniq: function (list) { var out = []; each(list, function (v) { if (out.indexOf(v) < 0) out.push(v); }); return out; },
    compact: function (list) { return filter(list, function (v) { return !!v; }); },
    without: function (list) { var drop = Array.prototype.slice.call(arguments, 1); return filter(list, function (v) { return drop.indexOf(v) < 0; }); },
    union: function () { return global._.uniq(flatten(Array.prototype.slice.call(arguments), true)); },
    intersection: function (list, other) { return filter(global._.uniq(list), function (v) { return contains(other, v); }); },
    difference: function (list, other) { return filter(list, function (v) { return !contains(other, v); }); },
    first: function (list, n) { return n === undefined ? (list || [])[0] : (list || []).slice(0, n); },
    last: function (list, n) { var l = list || []; return n === undefined ? l[l.length - 1] : l.slice(Math.max(0, l.length - n)); },
    size: function (list) { return isArrayLike(list) ? list.length : keysOf(list).length; },
    isEmpty: function (value) { return value === null || value === undefined || (isArrayLike(value) ? value.length === 0 : keysOf(value).length === 0); },
    isArray: Array.isArray,
    isObject: function (value) { return value !== null && (typeof value === 'object' || typeof value === 'function'); },
    isString: function (value) { return typeof value === 'string'; },
    isNumber: function (value) { return typeof value === 'number'; },
    isBoolean: function (value) { return typeof value === 'boolean'; },
    isUndefined: function (value) { return value === undefined; },
    isNull: function (value) { return value === null; },
    has: function (object, key) { return object !== null && object !== undefined && Object.prototype.hasOwnProperty.call(object, key); },
    extend: function (target) { for (var i = 1; i < arguments.length; i++) for (var k in arguments[i]) target[k] = arguments[i][k]; return target; },
    pick: function (object) { var keep = flatten(Array.prototype.slice.call(arguments, 1)), out = {}; each(keep, function (k) { if (object && k in object) out[k] = object[k]; }); return out; },
    omit: function (object) { var drop = flatten(Array.prototype.slice.call(arguments, 1)), out = {}; each(object, function (v, k) { if (drop.indexOf(k) < 0) out[k] = v; }); return out; },
    range: function (start, stop, step) {
      if (stop === undefined) { stop = start; start = 0; }
      step = step || 1;
      var out = [];
      for (var i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
      return out;
    },
    max: function (list, fn) { return extreme(list, fn, function (a, b) { return a > b; }); },
    min: function (list, fn) { return extreme(list, fn, function (a, b) { return a < b; }); },
    identity: function (value) { return value; }
  };
  global._.assign = global._.extend;
  global._.all = global._.every;
  global._.any = global._.some;
  global._.inject = global._.reduce;
  global._.foldl = global._.reduce;
})(globalThis);
`;
