/** Applying Mission Control manifests (ADR 0074): the route, and the apply a GitOps folder reconcile runs. */
export { applyPlugin, API_APPLY_SOURCE } from './apply-plugin';
export { applyResources, type ApplyReport, type DocumentOutcome } from './apply-service';
export { GITOPS_FOLDER_PROPERTY } from './gitops-folder';
export { renderConnectionCompatibility, renderNotificationCompatibility } from './compatibility-section';
