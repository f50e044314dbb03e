import { useCallback } from 'react';
import { TOPOLOGY_CARD_SIZES, TOPOLOGY_CARD_WIDTH, TOPOLOGY_VIEW_TYPES, type TopologyCardSize, type TopologyViewType } from '@opsdeck/shared';
import { usePreference } from '@/lib/preferences/use-preference';

/** Local-storage keys of the card layout (spec 001 §2.9: the width is stored locally). */
export const CARD_SIZE_KEY = 'topologyCardSize';
export const CARD_WIDTH_KEY = 'topologyCardWidth';
export const VIEW_TYPE_KEY = 'topologyViewType';
export const SIDE_PANEL_OPEN_KEY = 'topologySidePanelOpen';

/** Medium keeps the dashboard dense: compact headline metrics, several cards per row even on a laptop. */
export const DEFAULT_CARD_SIZE: TopologyCardSize = 'medium';
export const DEFAULT_VIEW_TYPE: TopologyViewType = 'summary';

export function isCardSize(value: string | null | undefined): value is TopologyCardSize {
  return typeof value === 'string' && Object.hasOwn(TOPOLOGY_CARD_SIZES, value);
}

function isViewType(value: string): value is TopologyViewType {
  return (TOPOLOGY_VIEW_TYPES as readonly string[]).includes(value);
}

/** A stored slider width, or null when none is stored or it is outside the slider's range. */
export function parseCardWidth(value: string): number | null {
  if (!/^\d+$/.test(value)) return null;
  const width = Number(value);
  return width >= TOPOLOGY_CARD_WIDTH.min && width <= TOPOLOGY_CARD_WIDTH.max ? width : null;
}

export interface CardLayout {
  size: TopologyCardSize;
  /** The width cards are drawn at: the slider's when the user moved it since choosing a size, else the size's. */
  width: number;
  /** The slider's position: its own width, or the size's clamped into the slider's range. */
  sliderWidth: number;
  viewType: TopologyViewType;
}

export interface CardPreferences extends CardLayout {
  setSize: (size: TopologyCardSize) => void;
  setWidth: (width: number) => void;
  setViewType: (viewType: TopologyViewType) => void;
}

export function cardLayout(size: TopologyCardSize, customWidth: number | null, viewType: TopologyViewType): CardLayout {
  const sizeWidth = TOPOLOGY_CARD_SIZES[size];
  const clamped = Math.min(TOPOLOGY_CARD_WIDTH.max, Math.max(TOPOLOGY_CARD_WIDTH.min, sizeWidth));
  return { size, width: customWidth ?? sizeWidth, sliderWidth: customWidth ?? clamped, viewType };
}

/**
 * Card size, width and view type, kept in local storage. Choosing a size drops the slider's width, so the size's
 * own width applies again; moving the slider afterwards overrides it.
 */
export function useCardPreferences(): CardPreferences {
  const [storedSize, storeSize] = usePreference(CARD_SIZE_KEY, DEFAULT_CARD_SIZE);
  const [storedWidth, storeWidth] = usePreference(CARD_WIDTH_KEY, '');
  const [storedViewType, storeViewType] = usePreference(VIEW_TYPE_KEY, DEFAULT_VIEW_TYPE);
  const size = isCardSize(storedSize) ? storedSize : DEFAULT_CARD_SIZE;
  const viewType = isViewType(storedViewType) ? storedViewType : DEFAULT_VIEW_TYPE;
  const setSize = useCallback(
    (next: TopologyCardSize) => {
      storeSize(next);
      storeWidth(null);
    },
    [storeSize, storeWidth],
  );
  const setWidth = useCallback((next: number) => storeWidth(String(next)), [storeWidth]);
  const setViewType = useCallback((next: TopologyViewType) => storeViewType(next), [storeViewType]);
  return { ...cardLayout(size, parseCardWidth(storedWidth), viewType), setSize, setWidth, setViewType };
}
