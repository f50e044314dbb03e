/** The server's answer to a definition-of-done script check: valid, or why not (with the evaluator's details). */
export type ScriptValidation = { valid: true } | { valid: false; message: string; details: string | null };
