import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const YAML_FILE = /\.ya?ml$/i;

/**
 * The .yaml/.yml files under `target` (a file or a folder, read recursively), in a stable order, each with its path
 * relative to where the user pointed so the server's refusals name the file as they know it. Hidden folders (.git)
 * are skipped, as kubectl does.
 * @param {string} target
 * @returns {Array<{ path: string, content: string }>}
 */
export function readApplyFiles(target) {
  const stats = statSync(target);
  if (stats.isFile()) return [{ path: target, content: readFileSync(target, 'utf8') }];
  const found = [];
  const walk = (folder) => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && YAML_FILE.test(entry.name)) found.push({ path: path.relative(target, full).split(path.sep).join('/'), content: readFileSync(full, 'utf8') });
    }
  };
  walk(target);
  return found;
}

/**
 * One line per document of the server's answer, as kubectl prints them: `canary.shop/web created (a.yaml#1)`.
 * @param {{ dryRun: boolean, documents: Array<{ file: string | null, index: number | null, kind: string, namespace: string, name: string, action: string, error: { code: string, message: string, details: string | null } | null }> }} report
 * @returns {string[]}
 */
export function reportLines(report) {
  const suffix = report.dryRun ? ' (dry run)' : '';
  return report.documents.map((d) => {
    const where = d.file === null || d.index === null ? '' : ` (${d.file}#${d.index})`;
    if (d.action === 'refused') return `${d.error?.details ?? `${d.file ?? '(request body)'} document ${d.index ?? '?'}`} ${report.dryRun ? 'would be refused' : 'refused'}: ${d.error?.code ?? ''} ${d.error?.message ?? ''}`;
    return `${d.kind.toLowerCase()}.${d.namespace}/${d.name} ${d.action}${where}${suffix}`;
  });
}

/**
 * The line for a refusal of the whole request: its code, message, and where (file, document, field).
 * @param {{ code?: string, message?: string, details?: string | null, hint?: string | null }} body
 * @returns {string}
 */
export function refusalLine(body) {
  const where = body.details ? ` [${body.details}]` : '';
  const hint = body.hint ? `\n  hint: ${body.hint}` : '';
  return `refused: ${body.code ?? 'error'} ${body.message ?? ''}${where}${hint}`;
}

/**
 * The command line: -f/--filename, --dry-run, --prune, --server, --token (OPSDECK_TOKEN and OPSDECK_URL otherwise).
 * @param {string[]} argv
 * @param {Record<string, string | undefined>} env
 */
export function parseApplyArguments(argv, env) {
  const options = { file: null, dryRun: false, prune: false, server: env.OPSDECK_URL ?? 'http://127.0.0.1:8080', token: env.OPSDECK_TOKEN ?? null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      const next = argv[i + 1];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      i += 1;
      return next;
    };
    if (arg === '-f' || arg === '--filename') options.file = value();
    else if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--prune') options.prune = true;
    else if (arg === '--server') options.server = value();
    else if (arg === '--token') options.token = value();
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.file === null) throw new Error('give the file or folder to apply with -f <file-or-folder>');
  if (options.token === null) throw new Error('give an API token with --token or OPSDECK_TOKEN (profile page, API tokens)');
  return options;
}
