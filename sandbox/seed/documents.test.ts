import { describe, expect, it } from "vitest";
import { SeededRandom } from "../random";
import { generateCnpj, generateCpf, isValidCnpj, isValidCpf } from "./documents";

describe("seed documents", () => {
  it("generates CPF and CNPJ numbers with valid check digits", () => {
    const random = new SeededRandom(1);
    for (let i = 0; i < 200; i++) {
      expect(isValidCpf(generateCpf(random))).toBe(true);
      expect(isValidCnpj(generateCnpj(random))).toBe(true);
    }
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("52998224726")).toBe(false);
    expect(isValidCpf("11111111111")).toBe(false);
    expect(isValidCnpj("11222333000181")).toBe(true);
    expect(isValidCnpj("11222333000182")).toBe(false);
  });
});
