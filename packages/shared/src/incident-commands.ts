import { z } from 'zod';
import { INCIDENT_SEVERITIES, INCIDENT_TYPES } from './constants';
import { EVIDENCE_TYPES, INCIDENT_STATUSES } from './incidents';
import { TEXT_LIMITS } from './text-limits';

/**
 * The incident commands of ADR 0045 (`POST /api/incidents`, `POST /api/incidents/{id}/evidence`,
 * `DELETE /api/hypotheses/{id}`): what the server validates and documents, and the types the web calls them with.
 */

const id = z.guid();
const jsonObject = z.record(z.string(), z.unknown());

/** Evidence as another area hands it over: its type, the item it is about and the inner payload (spec 000 §7). */
export const incidentEvidenceInputSchema = z
  .strictObject({
    type: z.enum(EVIDENCE_TYPES),
    description: z.string().max(TEXT_LIMITS.long).nullable().optional(),
    evidence: jsonObject.nullable().optional(),
    properties: jsonObject.optional(),
    config_id: id.optional(),
    config_analysis_id: id.optional(),
    config_change_id: id.optional(),
    component_id: id.optional(),
    check_id: id.optional(),
  })
  .describe('The evidence to attach; its creator is the caller');
export type IncidentEvidenceInput = z.infer<typeof incidentEvidenceInputSchema>;

export const createIncidentBodySchema = z
  .strictObject({
    title: z.string().trim().min(1, 'must not be empty').max(TEXT_LIMITS.short),
    description: z.string().max(TEXT_LIMITS.long).nullable().optional().describe('Blank is stored as no description'),
    type: z.enum(INCIDENT_TYPES),
    severity: z.enum(INCIDENT_SEVERITIES),
    status: z.enum(INCIDENT_STATUSES),
    evidence: incidentEvidenceInputSchema.optional().describe('Attached to the new root hypothesis, e.g. the config or component the incident was opened from'),
  })
  .describe('A new incident; the caller becomes its creator, commander and communicator');
export type CreateIncidentBody = z.infer<typeof createIncidentBodySchema>;

export const createdIncidentSchema = z.object({
  id,
  incident_id: z.string().describe('The display id, INC-<n>'),
  root_hypothesis_id: id,
  evidence_id: id.nullable(),
});
export type CreatedIncident = z.infer<typeof createdIncidentSchema>;

export const incidentIdParamsSchema = z.object({ id });

export const linkEvidenceBodySchema = z
  .strictObject({
    hypothesis_id: id.optional().describe('An existing hypothesis of the incident'),
    hypothesis_title: z.string().trim().min(1, 'must not be empty').max(TEXT_LIMITS.short).optional().describe('Creates this hypothesis under the first one that may have children (root when there is none)'),
    evidence: incidentEvidenceInputSchema,
  })
  .refine((body) => (body.hypothesis_id === undefined) !== (body.hypothesis_title === undefined), {
    message: 'give either hypothesis_id or hypothesis_title',
    path: ['hypothesis_id'],
  });
export type LinkEvidenceBody = z.infer<typeof linkEvidenceBodySchema>;

export const linkedEvidenceSchema = z.object({
  id: id.describe('The new evidence'),
  hypothesis_id: id,
  incident: z.object({ id, incident_id: z.string() }),
});
export type LinkedEvidence = z.infer<typeof linkedEvidenceSchema>;

export const hypothesisIdParamsSchema = z.object({ id });

export const deletedHypothesesSchema = z.object({
  hypotheses: z.number().int().describe('The hypothesis and every one beneath it'),
  evidences: z.number().int(),
  comments: z.number().int(),
});
export type DeletedHypotheses = z.infer<typeof deletedHypothesesSchema>;
