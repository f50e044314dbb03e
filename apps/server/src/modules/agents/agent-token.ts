import { randomBytes } from 'node:crypto';

/** Makes an agent's token recognisable in a leaked file or a secret scanner's report. */
export const AGENT_TOKEN_PREFIX = 'opsdeck_agent_';

/** A 256-bit url-safe token; the caller stores only its SHA-256 and shows the token once. */
export function newAgentToken(): string {
  return `${AGENT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}
