/**
 * A customer's CPF/CNPJ as the order page shows it: only the last two digits, enough to tell two
 * customers apart on a call, not enough to reuse the number. Formatting characters stay.
 */
export function maskDocument(documentNumber: string): string {
  const digits = documentNumber.replace(/\D/g, "");
  if (digits.length === 0) return "—";
  let seen = 0;
  const keepFrom = digits.length - 2;
  const formatted =
    digits.length === 11
      ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`
      : digits.length === 14
        ? `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`
        : digits;
  return formatted.replace(/\d/g, (digit) => (seen++ >= keepFrom ? digit : "•"));
}
