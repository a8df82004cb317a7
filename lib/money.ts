// Platform money is an integer `value` divided by an integer `normalizer` (spec: General
// conventions). It never becomes a float here (`4.35 * 100` is 434.99999999999994): BigInt splits
// it, and Intl.NumberFormat formats the decimal string exactly (ECMA-402 NumberFormat v3).

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
  // Beyond 2^53 a number has already lost digits: formatting it would print a value never sent.
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`Money value must be a safe integer (or a bigint), got ${value}`);
  }
  return BigInt(value);
}

/**
 * Exact for 2^a·5^b normalizers (max(a, b) digits); any other gets as many digits as it has, so
 * two different values never print the same (last digit rounded half away from zero).
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

/** Currency units as a plain decimal string ("-1234.50"); precision as `fractionDigitsFor`. */
export function moneyToDecimalString(money: Pick<MoneyAmount, "value" | "normalizer">): string {
  const normalizer = assertNormalizer(money.normalizer);
  const value = toBigIntValue(money.value);
  const digits = fractionDigitsFor(money.normalizer);
  const scale = 10n ** BigInt(digits);
  const magnitude = value < 0n ? -value : value;
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
 * Decimals follow the normalizer, not the currency: it says how precise the amount is.
 * @throws RangeError for an unsafe value, a normalizer below 1 or a malformed currency code.
 */
export function formatMoney(money: MoneyAmount, locale: string = DEFAULT_LOCALE): string {
  const decimal = moneyToDecimalString(money);
  const digits = Math.min(fractionDigitsFor(money.normalizer), MAX_FRACTION_DIGITS);
  const formatter = currencyFormatter(locale, money.currency, digits);
  // The typings say number | bigint, but the engine takes a decimal string exactly (tests pin it).
  return formatter.format(decimal as unknown as number);
}

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
  /** Digits in the last integer group and in those before it (en-IN: 3 and 2). */
  primaryGroup: number;
  secondaryGroup: number;
  currencyMarks: string[];
}

const SPACES = /[\s\u00a0\u202f]/g;

function localeNotation(locale: string, currency: string): LocaleNotation {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567890.5);
  const decimal = parts.find((part) => part.type === "decimal")?.value ?? ".";
  // A (narrow) no-break space group is matched by stripping spaces instead.
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
 * By string manipulation only. A lone "." or "," that is not valid grouping is the decimal separator
 * (sellers type "19.99" in pt-BR forms); decimals the normalizer cannot hold are refused, never rounded.
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
  // A sign may sit on either side of the symbol; accounting notation wraps negatives in parentheses.
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

  // "12," and ",5" are common while typing and unambiguous.
  const digits = integerPart === "" && fractionPart !== "" ? "0" : ungroup(integerPart, notation);
  if (digits === null || !/^\d*$/.test(fractionPart)) return { ok: false, reason: "invalid" };

  const fraction = fractionPart.replace(/0+$/, "");
  const scaled = BigInt(digits + fraction) * normalizer;
  const divisor = 10n ** BigInt(fraction.length);
  if (scaled % divisor !== 0n) return { ok: false, reason: "too_precise" };
  const value = scaled / divisor;
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: "too_large" };
  return { ok: true, value: Number(value) };
}
