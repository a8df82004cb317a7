import { describe, expect, it } from "vitest";
import { safeWebUrl } from "./common";

describe("safeWebUrl", () => {
  it("keeps http(s) addresses from the platform", () => {
    expect(safeWebUrl("https://cdn.marketplace.example/p/1.jpg")).toBe("https://cdn.marketplace.example/p/1.jpg");
    expect(safeWebUrl("http://localhost:4010/_assets/labels/1")).toBe("http://localhost:4010/_assets/labels/1");
  });

  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:x",
    "//evil.example/x",
    "",
    "not a url",
  ])("refuses %j as a link or image", (value) => {
    expect(safeWebUrl(value)).toBeNull();
  });
});
