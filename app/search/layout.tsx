import { ClientWords } from "@/i18n/client-words-provider";

// The words the search page's client components read (i18n/client-words.ts).
export default function Layout({ children }: LayoutProps<"/search">) {
  return <ClientWords layout="search">{children}</ClientWords>;
}
