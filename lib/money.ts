// Money on the platform is an integer `value`, an ISO-4217 `currency` and an integer `normalizer`
// that divides the value into currency units (spec: Resources and their fields → General
// conventions; Limits: normalizer default 100). Amounts are never turned into floating-point
// numbers here: 19.99 has no exact binary form, and `4.35 * 100` is 434.99999999999994. Values
// are split with BigInt and handed to Intl.NumberFormat as decimal strings, which it formats
// exactly (ECMA-402 NumberFormat v3, available since Node 20).

/** The money shape of the wire (`moneySchema`), with `value` also accepted as a bigint. */
export interface MoneyAmount {
  value: number | bigint;
  currency: string;
  normalizer: number;
}

const DEFAULT_LOCALE = "pt-BR";
/** ECMA-402 refuses more than 100 fraction digits. */
const MAX_FRACTION_DIGITS = 100;

function assertNormalizer(normalizer: number): bigint {
  if (!Number.isSafeInteger(normalizer) || normalizer < 1) {
    throw new RangeError(`Money normalizer must be a positive integer, got ${normalizer}`);
  }
  return BigInt(normalizer);
}

function toBigIntValue(value: number | bigint): bigint {
  if (typeof value === "bigint") return value;
  // Beyond 2^53 a number has already lost digits before reaching us, so formatting it would
  // print a value the platform never sent. The spec's values are integers.
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`Money value must be a safe integer (or a bigint), got ${value}`);
  }
  return BigInt(value);
}

/**
 * How many fraction digits a normalizer needs.
 *
 * - 10^k → k (1 → 0, 100 → 2, 1000 → 3): every value is shown exactly.
 * - 2^a·5^b (e.g. 8, 250) → max(a, b): value / normalizer is a terminating decimal, so it is
 *   still shown exactly (1/8 = 0.125).
 * - Anything else (e.g. 3): the quotient may not terminate; we use as many digits as the
 *   normalizer has, so 10^digits > normalizer and two different values never print the same.
 *   The last digit is rounded half away from zero.
 */
export function fractionDigitsFor(normalizer: number): number {
  let rest = assertNormalizer(normalizer);
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest === 1n) return Math.max(twos, fives);
  return String(normalizer).length;
}

/**
 * The amount in currency units as a plain decimal string ("-1234.50", "0", "12.345"), exact for
 * every normalizer of the form 2^a·5^b; see `fractionDigitsFor` for the others.
 */
export function moneyToDecimalString(money: Pick<MoneyAmount, "value" | "normalizer">): string {
  const normalizer = assertNormalizer(money.normalizer);
  const value = toBigIntValue(money.value);
  const digits = fractionDigitsFor(money.normalizer);
  const scale = 10n ** BigInt(digits);
  const magnitude = value < 0n ? -value : value;
  // magnitude * scale / normalizer, rounded half away from zero; exact when it divides.
  const numerator = magnitude * scale;
  let scaled = numerator / normalizer;
  if ((numerator % normalizer) * 2n >= normalizer) scaled += 1n;

  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(digits, "0");
  const sign = value < 0n && scaled !== 0n ? "-" : "";
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

// Building an Intl.NumberFormat costs far more than using one, and a table formats hundreds of
// amounts with the same few locale/currency/digits combinations.
const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormatter(locale: string, currency: string, digits: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${digits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Formats a platform amount for display, e.g. `{ value: 123456, currency: "BRL", normalizer: 100 }`
 * → "R$ 1.234,56" in pt-BR. The number of decimals follows the normalizer, not the currency's
 * usual digits: the platform's normalizer says how precise the amount is (JPY with normalizer
 * 1 shows no decimals; BRL with normalizer 1000 shows three).
 *
 * @throws RangeError when the value is not a safe integer or bigint, the normalizer is not a
 *   positive integer, or the currency code is not well formed.
 */
export function formatMoney(money: MoneyAmount, locale: string = DEFAULT_LOCALE): string {
  const decimal = moneyToDecimalString(money);
  const digits = Math.min(fractionDigitsFor(money.normalizer), MAX_FRACTION_DIGITS);
  const formatter = currencyFormatter(locale, money.currency, digits);
  // The lib typings only declare number | bigint, but the engine takes a decimal string as an
  // exact "intl mathematical value" (see the module comment); the tests pin that behaviour.
  return formatter.format(decimal as unknown as number);
}

// ---------------------------------------------------------------------------------------------
// Input

export type MoneyInputError =
  | "empty" // nothing but spaces
  | "invalid" // not a number in the locale's notation
  | "negative" // prices and amounts typed by the seller are never negative
  | "too_precise" // more decimals than the normalizer can represent
  | "too_large"; // the integer value would exceed Number.MAX_SAFE_INTEGER

export type MoneyInputResult = { ok: true; value: number } | { ok: false; reason: MoneyInputError };

interface LocaleNotation {
  decimal: string;
  group: string;
  /** Digits in the last integer group and in the groups before it (3 and 3; en-IN: 3 and 2). */
  primaryGroup: number;
  secondaryGroup: number;
  /** Currency symbols this locale prints for the currency, plus the ISO code. */
  currencyMarks: string[];
}

const SPACES = /[\s\u00a0\u202f]/g;

function localeNotation(locale: string, currency: string): LocaleNotation {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567890.5);
  const decimal = parts.find((part) => part.type === "decimal")?.value ?? ".";
  // Locales that group with a (narrow) no-break space are matched by stripping spaces instead.
  const group = (parts.find((part) => part.type === "group")?.value ?? "").replace(SPACES, "");
  const groups = parts.filter((part) => part.type === "integer").map((part) => part.value.length);
  const primaryGroup = groups.at(-1) ?? 3;
  const secondaryGroup = groups.length > 2 ? (groups.at(-2) ?? 3) : primaryGroup;
  const currencyMarks = new Set<string>([currency]);
  for (const currencyDisplay of ["symbol", "narrowSymbol"] as const) {
    const symbol = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay })
      .formatToParts(1)
      .find((part) => part.type === "currency")?.value;
    if (symbol) currencyMarks.add(symbol.replace(SPACES, ""));
  }
  // Longest first, so "US$" is stripped before "$".
  return { decimal, group, primaryGroup, secondaryGroup, currencyMarks: [...currencyMarks].sort((a, b) => b.length - a.length) };
}

/** Digits with the locale's grouping (e.g. "1.234.567" in pt-BR) or no grouping at all. */
function ungroup(integer: string, notation: LocaleNotation): string | null {
  if (/^\d+$/.test(integer)) return integer;
  if (notation.group === "") return null;
  const groups = integer.split(notation.group);
  const first = groups[0] ?? "";
  const last = groups.at(-1) ?? "";
  const middle = groups.slice(1, -1);
  const valid =
    /^\d+$/.test(first) &&
    first.length <= notation.secondaryGroup &&
    new RegExp(`^\\d{${notation.primaryGroup}}$`).test(last) &&
    middle.every((group) => new RegExp(`^\\d{${notation.secondaryGroup}}$`).test(group));
  return valid ? groups.join("") : null;
}

function stripCurrency(text: string, marks: readonly string[]): string {
  for (const mark of marks) {
    if (text.startsWith(mark)) return text.slice(mark.length);
    if (text.endsWith(mark)) return text.slice(0, -mark.length);
  }
  return text;
}

/**
 * Reads an amount typed in currency units ("12,34" in pt-BR, "12.34" in en-US, "1.234,56",
 * "R$ 1.234,56") into the platform's integer `value` for the given normalizer, by string
 * manipulation only: "19.99" with normalizer 100 is 1999, never `parseFloat("19.99") * 100`.
 *
 * Rules:
 * - The locale's decimal and group separators are used; grouping must be well formed
 *   ("1.234.567", not "1.2.3"). The currency symbol or ISO code may precede or follow.
 * - When the text has no locale decimal separator but exactly one of the other separator ("." or
 *   ","), and that cannot be read as grouping, it is taken as the decimal separator, because
 *   sellers often type "19.99" in a pt-BR form. Text that is valid grouping stays grouping:
 *   "1.005" in pt-BR is 1005 units.
 * - Decimals the normalizer cannot represent are refused, never rounded (100 → at most 2;
 *   1 → none). Trailing zeros are dropped first: "12,50" is fine for normalizer 10. A
 *   normalizer that is not a power of ten accepts what it divides exactly (4 → "0.25", not "0.1").
 */
export function parseMoneyInput(
  text: string,
  money: Pick<MoneyAmount, "currency" | "normalizer">,
  locale: string = DEFAULT_LOCALE,
): MoneyInputResult {
  const normalizer = assertNormalizer(money.normalizer);
  const notation = localeNotation(locale, money.currency);

  let rest = text.replace(SPACES, "");
  if (rest === "") return { ok: false, reason: "empty" };
  // A sign may sit on either side of the currency symbol ("-R$ 5", "R$ -5"); accounting
  // notation wraps negatives in parentheses.
  if (/^[-\u2212(]/.test(rest)) return { ok: false, reason: "negative" };
  rest = stripCurrency(rest, notation.currencyMarks);
  if (/^[-\u2212(]/.test(rest)) return { ok: false, reason: "negative" };
  const withoutGroups = notation.group === "" ? rest : rest.split(notation.group).join("");
  if (!/^[\d.,]+$/.test(withoutGroups)) return { ok: false, reason: "invalid" };

  let integerPart: string;
  let fractionPart = "";
  const decimalAt = rest.lastIndexOf(notation.decimal);
  const alternative = notation.decimal === "," ? "." : ",";
  if (decimalAt >= 0) {
    integerPart = rest.slice(0, decimalAt);
    fractionPart = rest.slice(decimalAt + notation.decimal.length);
  } else {
    integerPart = rest;
    const grouped = ungroup(rest, notation);
    const alternativeAt = rest.indexOf(alternative);
    if (grouped === null && alternativeAt >= 0 && alternativeAt === rest.lastIndexOf(alternative)) {
      integerPart = rest.slice(0, alternativeAt);
      fractionPart = rest.slice(alternativeAt + 1);
    }
  }

  // "12," and ",5" are accepted as 12 and 0.5: both are common while typing and unambiguous.
  const digits = integerPart === "" && fractionPart !== "" ? "0" : ungroup(integerPart, notation);
  if (digits === null || !/^\d*$/.test(fractionPart)) return { ok: false, reason: "invalid" };

  const fraction = fractionPart.replace(/0+$/, "");
  // value = (digits.fraction) × normalizer = digits·fraction as an integer × normalizer / 10^k.
  const scaled = BigInt(digits + fraction) * normalizer;
  const divisor = 10n ** BigInt(fraction.length);
  if (scaled % divisor !== 0n) return { ok: false, reason: "too_precise" };
  const value = scaled / divisor;
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: "too_large" };
  return { ok: true, value: Number(value) };
}
