import { ClientWords } from "@/i18n/client-words-provider";

// The words this section's client components read (i18n/client-words.ts).
export default function Layout({ children }: LayoutProps<"/s/[shopId]/shipping">) {
  return <ClientWords layout="s/[shopId]/shipping">{children}</ClientWords>;
}
