import { describe, expect, it } from "vitest";
import { maskDocument } from "./mask-document";

describe("maskDocument", () => {
  it("masks a CPF, raw or formatted, keeping the last two digits", () => {
    expect(maskDocument("52998224725")).toBe("•••.•••.•••-25");
    expect(maskDocument("529.982.247-25")).toBe("•••.•••.•••-25");
  });

  it("masks a CNPJ", () => {
    expect(maskDocument("11222333000181")).toBe("••.•••.•••/••••-81");
  });

  it("masks other lengths without revealing more than two digits", () => {
    expect(maskDocument("123456")).toBe("••••56");
    expect(maskDocument("")).toBe("—");
  });
});
