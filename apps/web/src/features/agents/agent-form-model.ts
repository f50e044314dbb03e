import { z } from 'zod';
import { DEFAULT_SCRAPE_INTERVAL, SCRAPE_INTERVALS } from '@opsdeck/shared';
import { REQUIRED_MESSAGE, maxLengthMessage } from '@/components/forms/messages';
import type { AgentCreateInput, AgentDetail, AgentUpdateInput } from './api/types';

export const DUPLICATE_PROPERTY_MESSAGE = 'This property is already set';

/** The limits of the server's agent schema (apps/server agents-plugin.ts), checked before the form is sent. */
export const AGENT_LIMITS = { name: 255, description: 4096, propertyName: 255, propertyValue: 4096, properties: 100, topologyName: 255 } as const;

export const CONTROL_CHARACTERS_MESSAGE = 'Must not contain control characters such as tabs or line breaks';

export const TOO_MANY_PROPERTIES_MESSAGE = `An agent holds at most ${AGENT_LIMITS.properties} properties`;

/** A text the form trims before sending, held to the server's limit on what it receives. */
const trimmedText = (max: number) => z.string().refine((value) => value.trim().length <= max, maxLengthMessage(max));

const propertyRow = z.object({ key: trimmedText(AGENT_LIMITS.propertyName), value: z.string().max(AGENT_LIMITS.propertyValue, maxLengthMessage(AGENT_LIMITS.propertyValue)) });

export const agentFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, REQUIRED_MESSAGE)
      .max(AGENT_LIMITS.name, maxLengthMessage(AGENT_LIMITS.name))
      .regex(/^[^\p{Cc}]*$/u, CONTROL_CHARACTERS_MESSAGE),
    description: trimmedText(AGENT_LIMITS.description),
    properties: z.array(propertyRow),
    kubernetes: z.object({ enabled: z.boolean(), interval: z.enum(SCRAPE_INTERVALS) }),
    pushTelemetry: z.object({ enabled: z.boolean(), topologyName: trimmedText(AGENT_LIMITS.topologyName) }),
  })
  .superRefine((values, context) => {
    const seen = new Set<string>();
    let count = 0;
    values.properties.forEach((row, index) => {
      const key = row.key.trim();
      // A row left wholly blank is an unused slot, not a property.
      if (key === '' && row.value.trim() === '') return;
      if (key === '') context.addIssue({ code: 'custom', path: ['properties', index, 'key'], message: REQUIRED_MESSAGE });
      else if (seen.has(key)) context.addIssue({ code: 'custom', path: ['properties', index, 'key'], message: DUPLICATE_PROPERTY_MESSAGE });
      seen.add(key);
      count += 1;
      if (count === AGENT_LIMITS.properties + 1) context.addIssue({ code: 'custom', path: ['properties', index, 'key'], message: TOO_MANY_PROPERTIES_MESSAGE });
    });
  });

export type AgentFormValues = z.infer<typeof agentFormSchema>;

export function agentFormValues(agent?: AgentDetail): AgentFormValues {
  return {
    name: agent?.name ?? '',
    description: agent?.description ?? '',
    properties: Object.entries(agent?.properties ?? {}).map(([key, value]) => ({ key, value })),
    kubernetes: agent?.kubernetes ?? { enabled: false, interval: DEFAULT_SCRAPE_INTERVAL },
    pushTelemetry: { enabled: agent?.pushTelemetry.enabled ?? false, topologyName: agent?.pushTelemetry.topologyName ?? '' },
  };
}

export function toUpdateInput(values: AgentFormValues): AgentUpdateInput {
  const description = values.description.trim();
  const topologyName = values.pushTelemetry.topologyName.trim();
  return {
    description: description === '' ? null : description,
    properties: Object.fromEntries(values.properties.filter((row) => row.key.trim() !== '').map((row) => [row.key.trim(), row.value])),
    kubernetes: values.kubernetes,
    pushTelemetry: { enabled: values.pushTelemetry.enabled, topologyName: topologyName === '' ? null : topologyName },
  };
}

export function toCreateInput(values: AgentFormValues): AgentCreateInput {
  return { name: values.name.trim(), ...toUpdateInput(values) };
}
