/**
 * The parts of a self-service flow (Kratos's shape) that the server writes and the web renders alike. The server keeps
 * zod schemas for what it stores and reads back, and checks at compile time that they infer exactly these types.
 */

/** The self-service flows the identity routes serve. */
export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export type UiTextType = 'info' | 'error' | 'success';

/** A message of a flow or of one of its fields; ids follow Kratos's numbering (1xxxxxx info, 4xxxxxx errors). */
export interface UiText {
  id: number;
  text: string;
  type: UiTextType;
  /** Structured parts of the text, e.g. `secrets` of the recovery-code list. */
  context?: Record<string, unknown>;
}
