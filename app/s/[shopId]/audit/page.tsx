import { AuditLogPage, auditLogMetadata } from "@/features/audit/components";

export const generateMetadata = auditLogMetadata;

export default async function AuditPage({ params, searchParams }: PageProps<"/s/[shopId]/audit">) {
  return <AuditLogPage shopId={(await params).shopId} searchParams={await searchParams} />;
}
