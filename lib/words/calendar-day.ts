// A calendar day the shop's clock named ("2026-11-30", as a digest's subject keeps it), in words:
// "30 de novembro" / "November 30". Read at noon UTC so no time zone moves it to another day.

export function calendarDayWords(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
}
