import { describe, expect, it } from "vitest";
import { phoneNumber } from "./phone-number";

describe("phoneNumber", () => {
  it("writes a mobile and a landline the Brazilian way", () => {
    expect(phoneNumber({ country_code: "55", area_code: "19", number: "994817289" })).toBe("+55 (19) 99481-7289");
    expect(phoneNumber({ country_code: "55", area_code: "11", number: "34567890" })).toBe("+55 (11) 3456-7890");
  });

  it("keeps a number of another length as the platform gave it", () => {
    expect(phoneNumber({ country_code: "1", area_code: "212", number: "5550100123" })).toBe("+1 (212) 5550100123");
  });
});
