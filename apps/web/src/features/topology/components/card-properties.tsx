import { clsx } from 'clsx';
import { TOPOLOGY_PROPERTIES_BEFORE_MORE } from '@opsdeck/shared';
import type { ComponentProperty } from '../api/types';
import { formatPropertyValue, isOverUsage, propertyLabel, safeColor, safeHref, usagePercent } from '../utils/property-format';
import { ShowMoreList } from './show-more-list';

function hasContent(property: ComponentProperty): boolean {
  return typeof property.value === 'number' || (property.text ?? '') !== '' || (property.links?.length ?? 0) > 0;
}

function visibleProperties(properties: readonly ComponentProperty[]): ComponentProperty[] {
  const visible = properties.filter((property) => property.hidden !== true && hasContent(property));
  // Properties with an order come first by it; the rest keep the order the spec listed them in.
  return visible
    .map((property, index) => ({ property, index }))
    .sort((a, b) => (a.property.order ?? Number.MAX_SAFE_INTEGER) - (b.property.order ?? Number.MAX_SAFE_INTEGER) || a.index - b.index)
    .map(({ property }) => property);
}

function PropertyLinks({ property }: { property: ComponentProperty }) {
  const links = (property.links ?? []).flatMap((link) => {
    const href = safeHref(link.url);
    return href === null ? [] : [{ ...link, href }];
  });
  if (links.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1.5">
      {links.map((link) => (
        <a key={link.href} href={link.href} target="_blank" rel="noopener noreferrer" title={link.tooltip} className="text-blue-700 hover:underline">
          {link.label ?? link.text ?? link.href}
        </a>
      ))}
    </span>
  );
}

interface PropertyValueProps {
  property: ComponentProperty;
  /** A headline metric leaves the max to its bar and its tooltip. */
  headline?: boolean;
  large?: boolean;
}

function PropertyValue({ property, headline = false, large = false }: PropertyValueProps) {
  const percent = usagePercent(property);
  const hot = isOverUsage(property);
  // The text of a property with links usually names them; the links alone say it once.
  const hasLinks = (property.links?.length ?? 0) > 0;
  const text = hasLinks && typeof property.value !== 'number' ? '' : formatPropertyValue(property, !headline);
  const textHref = property.type === 'url' && property.text !== undefined ? safeHref(property.text) : null;
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      {text !== '' && (
        <span
          data-usage={hot ? 'high' : undefined}
          title={property.tooltip ?? formatPropertyValue(property)}
          className={clsx('truncate', large ? 'text-lg font-semibold' : 'font-medium', hot ? 'text-red-600' : 'text-gray-900')}
          style={hot ? undefined : { color: safeColor(property.color) }}
        >
          {textHref === null ? (
            text
          ) : (
            <a href={textHref} target="_blank" rel="noopener noreferrer" className="text-blue-700 hover:underline">
              {text}
            </a>
          )}
        </span>
      )}
      {percent !== null && (
        <span
          role="meter"
          aria-label={`${propertyLabel(property)} usage`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          className="block h-1.5 w-full overflow-hidden rounded-full bg-gray-200"
        >
          <span className={clsx('block h-full rounded-full', hot ? 'bg-red-500' : 'bg-blue-500')} style={{ width: `${percent}%` }} />
        </span>
      )}
      <PropertyLinks property={property} />
    </span>
  );
}

export interface CardPropertiesProps {
  properties: readonly ComponentProperty[];
  /** Small and medium cards show only compact headline metrics (spec 001 §9). */
  compact: boolean;
}

/** A card's properties: headline metrics big at the top, the rest listed with 'show more' after 6. */
export function CardProperties({ properties, compact }: CardPropertiesProps) {
  const visible = visibleProperties(properties);
  const headline = visible.filter((property) => property.headline === true);
  const rest = compact ? [] : visible.filter((property) => property.headline !== true);
  if (headline.length === 0 && rest.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {headline.length > 0 && (
        <ul aria-label="Headline metrics" className={clsx('grid gap-2', compact ? 'grid-cols-2 text-xs' : 'grid-cols-[repeat(auto-fit,minmax(7rem,1fr))] text-sm')}>
          {headline.map((property) => (
            <li key={property.name} className="flex min-w-0 flex-col">
              <span className="truncate text-xs text-gray-500">{propertyLabel(property)}</span>
              <PropertyValue property={property} headline large={!compact} />
            </li>
          ))}
        </ul>
      )}
      {rest.length > 0 && <PropertyList properties={rest} />}
    </div>
  );
}

function PropertyList({ properties }: { properties: readonly ComponentProperty[] }) {
  return (
    <ShowMoreList
      label="Properties"
      items={properties}
      limit={TOPOLOGY_PROPERTIES_BEFORE_MORE}
      itemKey={(property) => property.name}
      renderItem={(property) => (
        <span className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-2 text-xs">
          <span className="truncate text-gray-500" title={propertyLabel(property)}>
            {propertyLabel(property)}
          </span>
          <PropertyValue property={property} />
        </span>
      )}
    />
  );
}
