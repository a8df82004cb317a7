import { _createCache, _createIntlFormatters } from "use-intl/core";

// Words outside a request (e-mails, pushes) share one cache of parsed messages and formatters for
// the process, so a burst of orders parses each message once: use-intl keys it by the message's
// text, locale and formats. Without it, each translator parsed again every message it formatted.
const cache = _createCache();

/**
 * Spread into `createTranslator`'s options. Not for a translator given a `timeZone`: a cached
 * message keeps the time zone of the translator that parsed it first. These are given none (their
 * dates arrive formatted).
 */
export const SHARED_INTL = { _cache: cache, _formatters: _createIntlFormatters(cache) };
