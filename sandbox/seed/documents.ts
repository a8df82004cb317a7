// Brazilian documents: seeded CPF and CNPJ numbers with valid check digits, and their validation.
import type { SeededRandom } from "../random";

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits[i] ?? 0) * (weights[i] ?? 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function generateCpf(random: SeededRandom): string {
  const digits = Array.from({ length: 9 }, () => random.int(0, 9));
  if (digits.every((digit) => digit === digits[0])) digits[8] = ((digits[8] ?? 0) + 1) % 10;
  digits.push(checkDigit(digits, CPF_WEIGHTS_1));
  digits.push(checkDigit(digits, CPF_WEIGHTS_2));
  return digits.join("");
}

export function generateCnpj(random: SeededRandom): string {
  const digits = [...Array.from({ length: 8 }, () => random.int(0, 9)), 0, 0, 0, 1];
  digits.push(checkDigit(digits, CNPJ_WEIGHTS_1));
  digits.push(checkDigit(digits, CNPJ_WEIGHTS_2));
  return digits.join("");
}

export function isValidCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  const digits = [...value].map(Number);
  return checkDigit(digits, CPF_WEIGHTS_1) === digits[9] && checkDigit(digits, CPF_WEIGHTS_2) === digits[10];
}

export function isValidCnpj(value: string): boolean {
  if (!/^\d{14}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  return checkDigit(digits, CNPJ_WEIGHTS_1) === digits[12] && checkDigit(digits, CNPJ_WEIGHTS_2) === digits[13];
}
