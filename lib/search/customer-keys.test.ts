import { describe, expect, it } from "vitest";
import { customerIdentifierOf, normalizedDocument, normalizedEmail } from "./customer-keys";

describe("customer identifiers", () => {
  it("reads an e-mail in lower case, trimmed", () => {
    expect(normalizedEmail("  Maria.Souza@Example.COM ")).toBe("maria.souza@example.com");
    expect(normalizedEmail("maria souza")).toBeNull();
  });

  it("reads a CPF or a CNPJ as its digits, however punctuated, and nothing else as one", () => {
    expect(normalizedDocument("123.456.789-09")).toBe("12345678909");
    expect(normalizedDocument("12.345.678/0001-95")).toBe("12345678000195");
    expect(normalizedDocument("1234567890")).toBeNull();
    expect(normalizedDocument("AA123456789BR")).toBeNull();
  });

  it("tells what a search text is", () => {
    expect(customerIdentifierOf("ana@example.com")).toEqual({ kind: "email", value: "ana@example.com" });
    expect(customerIdentifierOf("123.456.789-09")).toEqual({ kind: "document", value: "12345678909" });
    expect(customerIdentifierOf("Ana")).toBeNull();
  });
});
