/** The health module as the rest of the server sees it: its routes, and the canary sync the demo seed runs. */
export { healthPlugin } from './health-plugin';
export { syncCanaryChecks } from './canary-sync';
/** What scrapers share with canaries: sealed spec secrets, schedules, and the save-time rules on where a spec points. */
export { canarySpecHoldsSecrets, isSecretEnvelope, SpecSecretError } from './canary-secrets';
/** What topologies share with canaries: the canary rules, for the inline canaries a topology owns. */
export { CanarySpecError, checksFromCanarySpec } from './canary-spec';
export { canarySpecRunsExec } from './exec-permission';
export { scrubSecrets, SecretCollector } from './scrub-secrets';
/** The Signature Version 4 signer of http checks, which playbook http actions sign with too. */
export { awsSigV4Headers } from './checkers/http-auth';
export { isValidSchedule, nextRuntime, parseSchedule } from './schedule';
export { checkSpecTargets } from './spec-targets';
export { isInlineUrl } from './checkers/checker';
/** A check run once outside any canary: a topology's check lookups. */
export { runUnsavedCheck } from './run-unsaved-check';
/** canary `valueFrom` (ADR 0075), which http scrapers' `env` reads too. */
export { checkValueReferences, resolveValueReferences, ValueReferenceError } from './value-references';
/** A display (CEL, Go template or sandboxed JavaScript) evaluated on its own: a topology configLookup's. */
export { displayProblem, displayText } from './check-expressions';
/** One check run to its result, expressions included, for the bench (ADR 0070). */
export { runCheck } from './checkers/run-check';
/** The scheduler a worker runs, for the bench of how many checks one worker keeps on schedule (issue #33). */
export { CheckScheduler } from './check-scheduler';
/** What exec playbook actions share with exec checks: the same sandbox (ADR 0042). */
export { cloneInSandbox, currentSandbox, removeAsUser, runInSandbox, type Checkout, type SandboxRun } from './exec-host';
export { commandForRun } from './script-command';
export { EXEC_CONNECTION_TYPES, execConnectionEnvironment } from './exec-connections';
export { ARTIFACT_LIMITS, collectArtifacts, type CollectedArtifact } from './exec-artifacts';
export { artifactInfoSchema, registerArtifactDownload } from './artifact-routes';
export { execLimits, PRLIMIT_PATH, prlimitArguments, SANDBOX_PATH, sandboxEnvironment, type SandboxUser } from './exec-sandbox';
/** The Canary section of docs/compatibility.md, from the check catalogue the save path uses (ADR 0069). */
export { renderCanaryCompatibility } from './compatibility-section';
