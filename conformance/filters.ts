// The filter forms a check sends (spec: Generic list rules, points 3 and 4; 7. List prices;
// 9. List orders), declared as data: each builds its query from the records of the first page,
// so it works on any account, and says what every record of the answer must satisfy.
import { compareValues, foldText, isScalar, readPath, recordId, type WireRecord } from "./records";

export interface FilterProbe {
  params: [string, string][];
  /** What each answered record satisfies, for reasons: `status = approved`. */
  meaning: string;
  accepts: (record: WireRecord) => boolean;
  /**
   * The sample holds every record that matches (filters by id): the answer must then hold exactly
   * the matching sample records, no more.
   */
  exhaustive?: boolean;
}

export interface FilterCase {
  /** Parameter names, e.g. ["updated_at__ge", "updated_at__le"]: the check's name. */
  names: string[];
  /** The probe, or why the sample cannot exercise the form (the check is then skipped). */
  build: (sample: readonly WireRecord[]) => FilterProbe | string;
}

type Comparison = "gt" | "gte" | "ge" | "lt" | "lte" | "le";

const SYMBOLS: Readonly<Record<Comparison, string>> = { gt: ">", gte: "≥", ge: "≥", lt: "<", lte: "≤", le: "≤" };

function holds(operator: Comparison, order: number): boolean {
  if (Number.isNaN(order)) return false;
  if (operator === "gt") return order > 0;
  if (operator === "lt") return order < 0;
  return operator === "gte" || operator === "ge" ? order >= 0 : order <= 0;
}

/** The sample from its middle record on, then its start: every form picks the same records first. */
function fromMiddle(sample: readonly WireRecord[]): WireRecord[] {
  const middle = Math.floor(sample.length / 2);
  return [...sample.slice(middle), ...sample.slice(0, middle)];
}

/** The record nearest the middle of the sample that has a value at `field`. */
function pivotRecord(sample: readonly WireRecord[], field: string): WireRecord | undefined {
  return fromMiddle(sample).find((record) => isScalar(readPath(record, field)));
}

/** The sample's values of `field`, ascending. */
function sortedValues(sample: readonly WireRecord[], field: string): (string | number)[] {
  return sample
    .map((record) => readPath(record, field))
    .filter((value): value is string | number => typeof value === "string" || typeof value === "number")
    .sort((a, b) => compareValues(field, a, b));
}

/** `?field=value`: exact match, on the value of the middle record. */
export function exactMatch(field: string, options: { exhaustive?: boolean } = {}): FilterCase {
  return {
    names: [field],
    build: (sample) => {
      const record = pivotRecord(sample, field);
      if (!record) return `no record of the first page has ${field}`;
      const value = String(readPath(record, field));
      return {
        params: [[field, value]],
        meaning: `${field} = ${value}`,
        accepts: (candidate) => String(readPath(candidate, field)) === value,
        ...(options.exhaustive ? { exhaustive: true } : {}),
      };
    },
  };
}

/** `?field__in=v1,v2`: two distinct values of the sample. */
export function anyOf(field: string, options: { exhaustive?: boolean } = {}): FilterCase {
  const name = `${field}__in`;
  return {
    names: [name],
    build: (sample) => {
      const values = [
        ...new Set(
          fromMiddle(sample)
            .map((record) => readPath(record, field))
            .filter(isScalar)
            .map(String),
        ),
      ]
        // The spec has no escape for a comma inside an `__in` value.
        .filter((value) => !value.includes(","))
        .slice(0, 2);
      if (values.length === 0) return `no record of the first page has ${field}`;
      return {
        params: [[name, values.join(",")]],
        meaning: `${field} in (${values.join(", ")})`,
        accepts: (candidate) => values.includes(String(readPath(candidate, field))),
        ...(options.exhaustive ? { exhaustive: true } : {}),
      };
    },
  };
}

/** A word of the value as written (ASCII letters preferred: no folding question), a few characters of it. */
function needleOf(text: string): string | undefined {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3);
  const ascii = words.filter((word) => /^[A-Za-z0-9]+$/.test(word));
  const word = [...(ascii.length > 0 ? ascii : words)].sort((a, b) => b.length - a.length)[0];
  if (!word) return undefined;
  return word.length >= 5 ? word.slice(1, 5) : word;
}

/** `?field__like=value`: partial match, on a piece of the middle record's value. */
export function partialMatch(field: string): FilterCase {
  const name = `${field}__like`;
  return {
    names: [name],
    build: (sample) => {
      const record = fromMiddle(sample).find(
        (candidate) => typeof readPath(candidate, field) === "string" && needleOf(String(readPath(candidate, field))) !== undefined,
      );
      const needle = record ? needleOf(String(readPath(record, field))) : undefined;
      if (!needle) return `no record of the first page has a word of three characters in ${field}`;
      const folded = foldText(needle);
      return {
        params: [[name, needle]],
        meaning: `${field} containing "${needle}"`,
        accepts: (candidate) => {
          const value = readPath(candidate, field);
          return typeof value === "string" && foldText(value).includes(folded);
        },
      };
    },
  };
}

function comparisonProbe(field: string, operator: Comparison, pivot: string | number): FilterProbe {
  return {
    params: [[`${field}__${operator}`, String(pivot)]],
    meaning: `${field} ${SYMBOLS[operator]} ${pivot}`,
    accepts: (candidate) => holds(operator, compareValues(field, readPath(candidate, field), pivot)),
  };
}

/** `?field__gt=value` and the other comparisons, around the sample's median. */
export function comparison(field: string, operator: Comparison): FilterCase {
  return {
    names: [`${field}__${operator}`],
    build: (sample) => {
      const values = sortedValues(sample, field);
      const pivot = values[Math.floor(values.length / 2)];
      if (pivot === undefined) return `no record of the first page has ${field}`;
      return comparisonProbe(field, operator, pivot);
    },
  };
}

/** A range: a lower and an upper bound (point 4), around the middle half of the sample. */
export function range(field: string, lower: Comparison, upper: Comparison): FilterCase {
  return {
    names: [`${field}__${lower}`, `${field}__${upper}`],
    build: (sample) => {
      const values = sortedValues(sample, field);
      const low = values[Math.floor(values.length / 4)];
      const high = values[Math.floor((values.length * 3) / 4)];
      if (low === undefined || high === undefined) return `no record of the first page has ${field}`;
      return allOf(comparisonProbe(field, lower, low), comparisonProbe(field, upper, high));
    },
  };
}

function allOf(...probes: FilterProbe[]): FilterProbe {
  return {
    params: probes.flatMap((probe) => probe.params),
    meaning: probes.map((probe) => probe.meaning).join(" and "),
    accepts: (candidate) => probes.every((probe) => probe.accepts(candidate)),
    ...(probes.some((probe) => probe.exhaustive) ? { exhaustive: true } : {}),
  };
}

/** Several filters at once combine with AND (point 4). */
export function combined(...cases: FilterCase[]): FilterCase {
  return {
    names: cases.flatMap((entry) => entry.names),
    build: (sample) => {
      const probes: FilterProbe[] = [];
      for (const entry of cases) {
        const probe = entry.build(sample);
        if (typeof probe === "string") return probe;
        probes.push(probe);
      }
      return allOf(...probes);
    },
  };
}

/** Ids of the sample records that match: the answer must contain them (when it is complete). */
export function expectedIds(probe: FilterProbe, sample: readonly WireRecord[]): string[] {
  return sample.filter((record) => probe.accepts(record)).map(recordId);
}
