// An order's codes in the seller's words (the lists of codes: lib/words/order-codes.ts); any other shows marked.
import { ORDER_STATUSES } from "@marketplace/api/values";
import {
  COMMISSION_TYPES,
  DELIVERY_STATUSES,
  DURATION_PRECISIONS,
  MEASURE_UNITS,
  PAYMENT_METHODS,
  PICKUP_METHODS,
} from "@/lib/words/order-codes";
import { isOneOf, otherWord } from "@/lib/words/words";
import type { Words } from "@/lib/words/words";

export function orderStatusWord(t: Words, status: string): string {
  return isOneOf(ORDER_STATUSES, status) ? t(`orderStatuses.${status}`) : otherWord(t, status);
}

export function deliveryStatusWord(t: Words, status: string): string {
  return isOneOf(DELIVERY_STATUSES, status) ? t(`deliveryStatuses.${status}`) : otherWord(t, status);
}

export function paymentMethodWord(t: Words, method: string): string {
  return isOneOf(PAYMENT_METHODS, method) ? t(`paymentMethods.${method}`) : otherWord(t, method);
}

export function installmentsWord(t: Words, count: number): string {
  return t("installments", { count });
}

export function commissionTypeWord(t: Words, type: string): string {
  return isOneOf(COMMISSION_TYPES, type) ? t(`commissionTypes.${type}`) : otherWord(t, type);
}

export function pickupMethodWord(t: Words, method: string): string {
  return isOneOf(PICKUP_METHODS, method) ? t(`pickupMethods.${method}`) : otherWord(t, method);
}

/** A unit without a word keeps its code beside the count. */
export function quantityWord(t: Words, count: number, unit: string): string {
  const code = unit.trim().toUpperCase();
  return isOneOf(MEASURE_UNITS, code) ? t(`quantities.${code}`, { count }) : t("otherQuantity", { count, unit });
}

export interface TimeLimit {
  value: number;
  precision: string;
  workday: boolean;
}

export function durationWord(t: Words, { value, precision, workday }: TimeLimit): string {
  if (!isOneOf(DURATION_PRECISIONS, precision)) return otherWord(t, `${value} ${precision}`);
  return t(`durations.${precision}.${workday ? "workday" : "calendar"}`, { value });
}

/** `date` already formatted for the reader. */
export function timeLimitWord(t: Words, limit: TimeLimit, date: string): string {
  return t("timeLimit", { duration: durationWord(t, limit), date });
}
