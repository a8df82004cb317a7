import { describe, expect, it } from "vitest";
import { emptyAttribute, emptyDisplayRow, emptySkuFormState } from "@/features/skus/empty-rows";
import { listErrors, toFieldName, toHookFormErrors } from "./form-errors";

const form = () => {
  const state = emptySkuFormState();
  state.attributes.variant = [{ ...emptyAttribute(), display: [emptyDisplayRow("en_US")] }];
  return state;
};

describe("toFieldName", () => {
  it("writes rows with dots, a list's own error under its root, and what the form has no field for under the form's root", () => {
    expect(toFieldName("titles[0].value", form())).toBe("titles.0.value");
    expect(toFieldName("dimensions[0].height.value", form())).toBe("dimensions.0.height.value");
    expect(toFieldName("titles", form())).toBe("titles.root");
    expect(toFieldName("attributes.variant[0].display", form())).toBe("attributes.variant.0.display.root");
    expect(toFieldName("extras", form())).toBe("extras");
    expect(toFieldName("body", form())).toBe("root.body");
    expect(toFieldName("query.page", form())).toBe("root.query_page");
  });
});

describe("toHookFormErrors → listErrors", () => {
  it("gives back every error under the form path it was given, lists' own errors before their rows'", () => {
    const errors = {
      "titles[0].value": ["is required"],
      titles: ["title in pt_BR is required"],
      "attributes.variant[0].display": ["display must include language pt_BR"],
      "attributes.variant[0].display[0].language": ["must be a language code such as pt_BR"],
      body: ["the body is not valid JSON"],
    };
    const nested = toHookFormErrors(errors, form());
    // Lists keep their rows' errors in arrays: react-hook-form shifts those when a row goes.
    expect(Array.isArray(nested.titles)).toBe(true);
    expect(listErrors(nested)).toEqual([
      { path: "titles", message: "title in pt_BR is required" },
      { path: "titles[0].value", message: "is required" },
      { path: "attributes.variant[0].display", message: "display must include language pt_BR" },
      { path: "attributes.variant[0].display[0].language", message: "must be a language code such as pt_BR" },
      { path: "body", message: "the body is not valid JSON" },
    ]);
  });

  it("joins several messages for one field", () => {
    const nested = toHookFormErrors({ code: ["is required", "must be unique"] }, form());
    expect(listErrors(nested)).toEqual([{ path: "code", message: "is required; must be unique" }]);
  });
});
