// A Brazilian phone as people write it: "+55 (19) 99481-7289", "+55 (11) 3456-7890". Other
// lengths keep their digits as given, after the country and area codes.
import type { Phone } from "@marketplace/api/schemas/order";

export function phoneNumber({ country_code, area_code, number }: Phone): string {
  const digits = number.replace(/\D/g, "");
  const local = digits.length === 9 || digits.length === 8 ? `${digits.slice(0, -4)}-${digits.slice(-4)}` : number;
  return `+${country_code} (${area_code}) ${local}`;
}
