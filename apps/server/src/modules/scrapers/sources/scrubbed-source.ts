import { scrubSecrets, SecretCollector } from '../../health';
import type { ScrapeResult, SourceContext, SourceEntry, SourceRunner } from '../types';
import { ItemCollector, messageOf } from './extract';

/** One run of a source that opens sealed secrets: it fills `collector` and adds every secret it opens to `secrets`. */
export type SecretScrape = (entry: SourceEntry, context: SourceContext, secrets: SecretCollector, collector: ItemCollector) => Promise<void>;

/**
 * The runner around such a scrape. Whatever stops it becomes one error after the items found so far, and every secret
 * it opened is scrubbed from the whole result (an error message may quote a URL or a header) before anything stores it.
 */
export function secretScrubbingRunner(kind: string, scrape: SecretScrape): SourceRunner {
  return async (entry: SourceEntry, context: SourceContext): Promise<ScrapeResult> => {
    const collector = new ItemCollector(entry.spec, entry.full);
    const secrets = new SecretCollector();
    try {
      await scrape(entry, context, secrets, collector);
    } catch (error) {
      collector.error(`${kind}[${entry.index}]`, messageOf(error));
    }
    return scrubSecrets(collector.result(), secrets.values());
  };
}
