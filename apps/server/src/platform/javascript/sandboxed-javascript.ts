import variant from '@jitl/quickjs-singlefile-mjs-release-sync';
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { GLOBALS_PRELUDE, UNDERSCORE_PRELUDE, usesUnderscore } from './underscore-prelude';

/**
 * canary-checker and config-db run `javascript` fields in their own interpreter. Here they run in QuickJS compiled to
 * WebAssembly: a separate heap with no file system, network, clock beyond Date, process or host objects, so a script
 * written by anyone who may edit a check reaches only the values it is handed, never the server's rights. Each run gets
 * a fresh runtime with its own memory and stack limits and a deadline, and is thrown away after.
 */

/** Heap of one run unless the caller says otherwise: generous for an API answer, far below what could press on the server. */
const MEMORY_BYTES = 32 * 1024 * 1024;
/**
 * QuickJS's own stack limit, kept below what the host's stack holds of WebAssembly frames (measured: 256 KiB lets a
 * deeply nested JSON.parse overflow the host instead), so deep recursion is QuickJS's catchable "stack overflow".
 */
const STACK_BYTES = 128 * 1024;
/** Longest text a run may return (a display message or a transform's JSON). */
const OUTPUT_CHARACTERS = 1_000_000;

export interface JavaScriptLimits {
  timeoutMs: number;
  memoryBytes?: number;
}

/** What a script did wrong (threw, ran out of time or memory, returned too much): the message says it. */
export class JavaScriptError extends Error {}

/**
 * Loaded at the first need, not at start: its WebAssembly memory and module take about 20 MB, and most specs hold no
 * JavaScript (ADR 0079). Whatever evaluates a spec awaits prepareJavaScriptFor(spec) first, so evaluation stays
 * synchronous.
 */
let engine: QuickJSWASMModule | null = null;
let loading: Promise<void> | null = null;
/** Set while a run is inside the engine: still set at the next run means the last one was stopped from outside. */
let inside = false;

/** Loads the engine once; later calls share the first load. */
export function loadJavaScriptEngine(): Promise<void> {
  loading ??= newQuickJSWASMModuleFromVariant(variant).then(
    (loaded) => {
      engine = loaded;
      loading = null;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function restart(): void {
  engine = null;
  loadJavaScriptEngine().catch(() => undefined);
}

/**
 * Makes sure the engine is there before `spec` is evaluated, when any field of it is named `javascript` (a check's
 * test, display or transform, a scraper's transform, a topology's lookups): a cheap test that may load it needlessly,
 * never skip it.
 */
export async function prepareJavaScriptFor(spec: unknown): Promise<void> {
  if (engine !== null || !JSON.stringify(spec ?? null).includes('"javascript"')) return;
  await loadJavaScriptEngine();
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

function messageOf(context: QuickJSContext, handle: QuickJSHandle): string {
  const dumped: unknown = context.dump(handle);
  if (typeof dumped === 'object' && dumped !== null && 'message' in dumped) {
    const { name, message } = dumped as { name?: unknown; message?: unknown };
    return `${typeof name === 'string' ? `${name}: ` : ''}${String(message)}`;
  }
  return String(dumped);
}

function evaluateIn(context: QuickJSContext, source: string, filename: string): QuickJSHandle {
  const result = context.evalCode(source, filename);
  if (result.error !== undefined) {
    const message = messageOf(context, result.error);
    result.error.dispose();
    throw new JavaScriptError(message === 'InternalError: interrupted' ? 'the script ran past its time limit' : message);
  }
  return result.value;
}

/** The last statement's value as JSON text, made inside the sandbox (undefined and functions become null). */
function readJson(context: QuickJSContext): string {
  const json = evaluateIn(context, 'var __opsdeckJson = JSON.stringify(__opsdeckLast); __opsdeckJson === undefined ? "null" : __opsdeckJson', 'output.js');
  try {
    return context.getString(json);
  } finally {
    json.dispose();
  }
}

/**
 * Runs `source` with each entry of `globals` as a global variable (copied in as JSON, so nothing of the host crosses)
 * and canary-checker's `_` helpers, and returns the value of its last statement as plain data. Throws
 * JavaScriptError for what the script does wrong.
 */
export function runSandboxedJavaScript(source: string, globals: Record<string, unknown>, limits: JavaScriptLimits): unknown {
  if (inside) restart();
  const loaded = engine;
  if (loaded === null) {
    restart();
    throw new JavaScriptError('the JavaScript engine is loading (at its first use, or again after a stopped run); the next run evaluates it');
  }
  inside = true;
  const runtime = loaded.newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryBytes ?? MEMORY_BYTES);
    runtime.setMaxStackSize(STACK_BYTES);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
    const context = runtime.newContext();
    try {
      const input = context.newString(JSON.stringify(globals, jsonReplacer) ?? '{}');
      context.setProp(context.global, '__opsdeckInput', input);
      input.dispose();
      evaluateIn(context, GLOBALS_PRELUDE, 'globals.js').dispose();
      if (usesUnderscore(source)) evaluateIn(context, UNDERSCORE_PRELUDE, 'underscore.js').dispose();
      const value = evaluateIn(context, source, 'script.js');
      const isText = context.typeof(value) === 'string';
      let text: string;
      try {
        if (!isText) context.setProp(context.global, '__opsdeckLast', value);
        text = isText ? context.getString(value) : readJson(context);
      } finally {
        value.dispose();
      }
      if (text.length > OUTPUT_CHARACTERS) throw new JavaScriptError(`the script returned more than ${OUTPUT_CHARACTERS} characters`);
      return isText ? text : (JSON.parse(text) as unknown);
    } finally {
      context.dispose();
    }
  } catch (error) {
    if (error instanceof JavaScriptError) throw error;
    // The host stopped the engine part-way (its own stack, an abort): its memory may be inconsistent, so use a new one.
    restart();
    throw new JavaScriptError(`the JavaScript engine failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    try {
      runtime.dispose();
    } catch {
      // A runtime that cannot be freed (the engine stopped part-way, or a value was left behind) takes the engine with it.
      restart();
    }
    inside = false;
  }
}
