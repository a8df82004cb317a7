import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SearchPanel } from "@/features/search/components/search-panel";
import { findFor } from "@/features/search/search-route.server";
import { requirePerson } from "@/lib/auth/session.server";
import { can } from "@/lib/people/roles";

export async function searchPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("search"))("title") };
}

// One search across the person's shops (issue 42). The text is in the address, so the page answers
// a form sent without JavaScript, a reload and a shared link alike.
export async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const person = await requirePerson();
  const { q } = await searchParams;
  const query = typeof q === "string" ? q.slice(0, 1_000) : "";
  const [t, found] = await Promise.all([getTranslations("search"), query.trim() === "" ? null : findFor(person.shops, query)]);
  const roles = person.shops.map((shop) => shop.role);
  return (
    <section className="mx-auto max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <SearchPanel
        initialQuery={query}
        initialFound={found}
        searchable={{
          customerData: roles.some((role) => can(role, "orders.customerData")),
          products: roles.some((role) => can(role, "prices.view") || can(role, "skus.view")),
          people: roles.some((role) => can(role, "members.manage")),
        }}
      />
    </section>
  );
}
