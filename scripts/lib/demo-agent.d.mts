export declare const DEMO_AGENT_FILE: string;

export interface DemoAgentPlan {
  name: string;
  upstream: string;
  token: string;
  agentDir: string;
  scrapeDir: string;
}

export declare function demoAgentPlan(env?: NodeJS.ProcessEnv): DemoAgentPlan;
export declare function layOutSampleConfigs(plan: DemoAgentPlan): void;
export declare function agentEnvironment(plan: DemoAgentPlan, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
