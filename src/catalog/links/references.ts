import type { EventToAppend } from '../../platform/event-store/port';
import type { BatchReferences } from '../references';
import type { LinkEvent } from './events';

/**
 * What a link's events name (organisation's chunks, administrators' tag edits): the country its name
 * is parsed to, and the values its tags carry, derived (alone or in an organisation's LinkOrganised),
 * restored or taken over, each naming the tag of that name in its dimension's group.
 */
export function linkEventReferences(events: readonly Pick<EventToAppend, 'type' | 'data'>[]): BatchReferences {
  const countryNames: string[] = [];
  const tagValues: [string, string][] = [];
  for (const e of events) {
    let country: string | undefined;
    let tags: Partial<Record<string, readonly string[]>> | undefined;
    if (e.type === 'LinkParsed') country = (e.data as LinkEventData<'LinkParsed'>).country;
    else if (e.type === 'LinkTagsDerived' || e.type === 'LinkTagsRestored' || e.type === 'LinkTagsTakenOver') tags = (e.data as LinkEventData<'LinkTagsDerived'>).tags;
    else if (e.type === 'LinkOrganised') {
      const d = e.data as LinkEventData<'LinkOrganised'>;
      country = d.parsed?.country;
      tags = d.tags;
    }
    if (country !== undefined) countryNames.push(country);
    for (const [d, values] of Object.entries(tags ?? {})) for (const v of values ?? []) tagValues.push([d, v]);
  }
  return { countryNames, tagValues };
}
type LinkEventData<T extends LinkEvent['type']> = Extract<LinkEvent, { type: T }>['data'];
