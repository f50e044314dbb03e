/** The upstream side of remote agents: push, heartbeat and spec routes (ADR 0056). */
export { agentPushPlugin } from './agent-push-plugin';
