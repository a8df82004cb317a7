import { describe, expect, it } from "vitest";
import { SEARCH_MAX_LENGTH, searchText, wordPatterns } from "./search-text";

describe("searchText", () => {
  it("collapses spaces, and searches nothing shorter than two characters but a single digit (a short reference)", () => {
    expect(searchText("  João   da  Silva ")).toBe("João da Silva");
    expect(searchText(" a ")).toBeNull();
    expect(searchText("7")).toBe("7");
  });

  it("cuts a text longer than anything searched", () => {
    expect(searchText("x".repeat(500))).toHaveLength(SEARCH_MAX_LENGTH);
  });
});

describe("wordPatterns", () => {
  it("looks up each word of three letters or more once, its LIKE wildcards taken literally", () => {
    expect(wordPatterns("joao da silva silva")).toEqual(["%joao%", "%silva%"]);
    expect(wordPatterns("100% a_b")).toEqual(["%100\\%%", "%a\\_b%"]);
    expect(wordPatterns("um dois tres quatro cinco seis")).toHaveLength(4);
  });
});
