import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";

// The pager's line, built by ICU from parts that were concatenated before.

const words = (locale: "en" | "pt-BR") => createTranslator({ locale, messages: catalogues[locale] as Messages, namespace: "common.table" });

describe("the pager", () => {
  it("says where the reader is, with the page count when known and while loading", () => {
    const en = words("en");
    const page = (t: typeof en, pageCount: string | null, loading: boolean) =>
      t("page", {
        page: "2",
        hasPageCount: pageCount === null ? "no" : "yes",
        pageCount: pageCount ?? "",
        loading: loading ? "yes" : "no",
      });
    expect(page(en, "5", false)).toBe("Page 2 of 5");
    expect(page(en, null, true)).toBe("Page 2 · loading…");
    expect(page(en, "5", true)).toBe("Page 2 of 5 · loading…");
    expect(page(words("pt-BR"), "5", true)).toBe("Página 2 de 5 · carregando…");
  });
});
