import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatFieldPath, formatIssuePath } from "./field-path";

describe("formatFieldPath", () => {
  it.each<[PropertyKey[], string]>([
    [["dimensions", 0, "height", "value"], "dimensions[0].height.value"],
    [["attributes", "variant", 1, "display", "pt_BR"], "attributes.variant[1].display.pt_BR"],
    [["tags", 0], "tags[0]"],
    [["a", 0, 1, "b"], "a[0][1].b"],
    [[0, "name"], "[0].name"],
    [["code"], "code"],
    [[], ""],
  ])("writes %j as %j", (path, expected) => {
    expect(formatFieldPath(path)).toBe(expected);
  });
});

describe("formatIssuePath", () => {
  it("names the body itself `body`", () => {
    expect(formatIssuePath([])).toBe("body");
  });

  it("writes a zod issue's path the platform's way", () => {
    const result = z.object({ dimensions: z.array(z.object({ height: z.object({ value: z.number() }) })) }).safeParse({
      dimensions: [{ height: { value: 1 } }, { height: { value: "x" } }],
    });
    expect(result.error?.issues.map((issue) => formatIssuePath(issue.path))).toEqual(["dimensions[1].height.value"]);
  });
});
