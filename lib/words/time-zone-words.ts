// A time zone as a seller reads it: "São Paulo — Horário Padrão de Brasília (GMT-3)", never the IANA
// id ("America/Sao_Paulo"), which stays the stored and submitted value. The zone's name and offset
// come from Intl in the reader's language; Brazil's cities are spelt here, with their accents.

const BRAZILIAN_CITIES: Record<string, string> = {
  "America/Sao_Paulo": "São Paulo",
  "America/Manaus": "Manaus",
  "America/Cuiaba": "Cuiabá",
  "America/Campo_Grande": "Campo Grande",
  "America/Porto_Velho": "Porto Velho",
  "America/Boa_Vista": "Boa Vista",
  "America/Rio_Branco": "Rio Branco",
  "America/Eirunepe": "Eirunepé",
  "America/Fortaleza": "Fortaleza",
  "America/Recife": "Recife",
  "America/Bahia": "Salvador",
  "America/Belem": "Belém",
  "America/Maceio": "Maceió",
  "America/Araguaina": "Araguaína",
  "America/Santarem": "Santarém",
  "America/Noronha": "Fernando de Noronha",
};

/** Brazil's zones, São Paulo's (Brasília time) first: the sellers are Brazilian. */
export const BRAZILIAN_TIME_ZONES = Object.keys(BRAZILIAN_CITIES);

function zoneNamePart(zone: string, locale: string, style: "longGeneric" | "shortOffset", at: Date): string | undefined {
  return new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
}

// Settings names all ~420 zones on every render, and two Intl formatters per zone cost 75–140 ms
// there: a zone's words change only with its offset (daylight saving), so they are kept an hour.
const words = new Map<string, string>();

export function timeZoneWord(zone: string, locale: string, at = new Date()): string {
  const key = `${locale}|${zone}|${Math.floor(at.getTime() / 3_600_000)}`;
  const known = words.get(key);
  if (known) return known;
  const city = BRAZILIAN_CITIES[zone] ?? zone.split("/").at(-1)!.replaceAll("_", " ");
  const name = zoneNamePart(zone, locale, "longGeneric", at);
  const offset = zoneNamePart(zone, locale, "shortOffset", at);
  const word = name && name !== offset ? `${city} — ${name} (${offset})` : `${city} (${offset})`;
  // Bounded: an hour's words for each language, the older hours dropped.
  if (words.size > 4_000) words.clear();
  words.set(key, word);
  return word;
}
