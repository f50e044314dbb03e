#!/usr/bin/env node
// npm run apply -- -f <file-or-folder> [--dry-run] [--prune] [--server URL] [--token T]: Mission Control manifests sent
// to POST /api/apply with a personal API token (docs/apply.md). Exits 1 on any refusal, 2 on a usage error.
import { parseApplyArguments, readApplyFiles, refusalLine, reportLines } from './lib/apply-files.mjs';

async function main() {
  let options;
  try {
    options = parseApplyArguments(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`apply: ${error.message}`);
    return 2;
  }
  const files = readApplyFiles(options.file);
  if (files.length === 0) {
    console.error(`apply: no .yaml or .yml file under ${options.file}`);
    return 2;
  }
  const query = new URLSearchParams();
  if (options.dryRun) query.set('dryRun', 'true');
  if (options.prune) query.set('prune', 'true');
  const url = new URL(`/api/apply${query.size > 0 ? `?${query}` : ''}`, options.server);
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ files }),
  });
  const body = await response.json().catch(() => ({ message: `HTTP ${response.status}` }));
  if (!response.ok) {
    console.error(refusalLine(body));
    return 1;
  }
  for (const line of reportLines(body)) console.log(line);
  return body.documents.some((d) => d.action === 'refused') ? 1 : 0;
}

process.exitCode = await main();
