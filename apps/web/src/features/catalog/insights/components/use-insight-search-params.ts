import { useMemo } from 'react';
import { useSearchUpdate, type SearchUpdate } from '../../utils/use-search-update';
import { INSIGHT_PARAM_NAMES, parseInsightsParams, type InsightFilterName, type InsightsParams } from '../insight-params';

export interface InsightSearchParams {
  params: InsightsParams;
  /** Writes the given query parameters, dropping those set to null or ''; history is replaced, not pushed. */
  update: SearchUpdate;
  /** A new filter shows its first page. */
  setFilter: (name: InsightFilterName, value: string) => void;
}

/** The insights lists keep their filters, paging and sorting in the URL, so a filtered view can be shared. */
export function useInsightSearchParams(): InsightSearchParams {
  const [search, update] = useSearchUpdate();
  const params = useMemo(() => parseInsightsParams(search), [search]);
  const setFilter = (name: InsightFilterName, value: string) => update({ [INSIGHT_PARAM_NAMES[name]]: value, pageIndex: null });
  return { params, update, setFilter };
}
