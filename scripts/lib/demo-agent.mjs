import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './web-build.mjs';

/** What the demo seed leaves in the console's data folder for this script (apps/server/src/seed/agents.ts). */
export const DEMO_AGENT_FILE = 'demo-agent.json';

/** Sample app configs the local demo agent's file scraper reads: they show up in the catalog under the agent's name. */
const SAMPLE_CONFIGS = {
  'checkout.yaml': 'name: checkout-settings\nowner: payments\nreplicas: 3\nfeatureFlags:\n  newCart: true\n',
  'search.yaml': 'name: search-settings\nowner: discovery\nreplicas: 2\nindex: products-v7\n',
};

/**
 * Where the local demo agent keeps its data and which upstream and token it uses: the console's data folder is
 * DATA_DIR (default ./data), the agent's AGENT_DATA_DIR (default ./data-agent); OPSDECK_UPSTREAM overrides the URL the
 * demo recorded. Throws a sentence saying what to do when the demo has not been started yet.
 */
export function demoAgentPlan(env = process.env) {
  const consoleDir = path.resolve(ROOT, env.DATA_DIR ?? 'data');
  const file = path.join(consoleDir, DEMO_AGENT_FILE);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: start the console with its demo data first (npm start), then run npm run demo:agent beside it`);
  }
  const recorded = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof recorded.token !== 'string' || typeof recorded.upstream !== 'string') throw new Error(`${file} holds no agent token: delete the data folder and start the demo again`);
  const agentDir = path.resolve(ROOT, env.AGENT_DATA_DIR ?? 'data-agent');
  return { name: recorded.name, upstream: env.OPSDECK_UPSTREAM ?? recorded.upstream, token: recorded.token, agentDir, scrapeDir: path.join(agentDir, 'scrape', 'demo-agent') };
}

/** Writes the sample configs the agent's scraper reads, leaving any the user changed as they are. */
export function layOutSampleConfigs(plan) {
  // The agent keeps its data folder to its own user; made so from the start, it does not have to say it changed it.
  mkdirSync(plan.agentDir, { recursive: true, mode: 0o700 });
  const scrapeDir = plan.scrapeDir;
  mkdirSync(scrapeDir, { recursive: true });
  for (const [name, text] of Object.entries(SAMPLE_CONFIGS)) {
    const target = path.join(scrapeDir, name);
    if (!existsSync(target)) writeFileSync(target, text);
  }
}

/** The agent's environment: the token travels in it, never on the command line where `ps` would show it. */
export function agentEnvironment(plan, env = process.env) {
  return { ...env, DATA_DIR: plan.agentDir, OPSDECK_UPSTREAM: plan.upstream, OPSDECK_AGENT_TOKEN: plan.token };
}
