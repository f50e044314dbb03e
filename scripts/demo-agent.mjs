// Starts the demo's local agent beside a running demo console (README, docs/agents.md):
//   npm run demo:agent            (DATA_DIR, AGENT_DATA_DIR, OPSDECK_UPSTREAM override the defaults)
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { agentEnvironment, demoAgentPlan, layOutSampleConfigs } from './lib/demo-agent.mjs';
import { SERVER_ENTRY, ensureServerBuild } from './lib/server-build.mjs';
import { ROOT } from './lib/web-build.mjs';

let plan;
try {
  ensureServerBuild();
  plan = demoAgentPlan();
  layOutSampleConfigs(plan);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

console.log(`Starting the demo agent '${plan.name}' for ${plan.upstream}; its data is in ${plan.agentDir}. Ctrl-C stops it.`);
const agent = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY, 'agent'], { cwd: ROOT, stdio: 'inherit', env: agentEnvironment(plan) });

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (agent.exitCode === null && agent.signalCode === null) agent.kill(signal);
  });
}
agent.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 1 : constants.signals[signal])));
