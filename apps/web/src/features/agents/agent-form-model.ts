import { z } from 'zod';
import { DEFAULT_SCRAPE_INTERVAL, SCRAPE_INTERVALS } from '@opsdeck/shared';
import { REQUIRED_MESSAGE } from '@/components/forms/messages';
import type { AgentCreateInput, AgentDetail, AgentUpdateInput } from './api/types';

export const DUPLICATE_PROPERTY_MESSAGE = 'This property is already set';

const propertyRow = z.object({ key: z.string(), value: z.string() });

export const agentFormSchema = z
  .object({
    name: z.string().trim().min(1, REQUIRED_MESSAGE),
    description: z.string(),
    properties: z.array(propertyRow),
    kubernetes: z.object({ enabled: z.boolean(), interval: z.enum(SCRAPE_INTERVALS) }),
    pushTelemetry: z.object({ enabled: z.boolean(), topologyName: z.string() }),
  })
  .superRefine((values, context) => {
    const seen = new Set<string>();
    values.properties.forEach((row, index) => {
      const key = row.key.trim();
      // A row left wholly blank is an unused slot, not a property.
      if (key === '' && row.value.trim() === '') return;
      if (key === '') context.addIssue({ code: 'custom', path: ['properties', index, 'key'], message: REQUIRED_MESSAGE });
      else if (seen.has(key)) context.addIssue({ code: 'custom', path: ['properties', index, 'key'], message: DUPLICATE_PROPERTY_MESSAGE });
      seen.add(key);
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
