import { AuditLogPage, auditLogMetadata } from "@/features/audit/pages/audit-log-page";

export const generateMetadata = auditLogMetadata;

export default async function AuditPage({ params, searchParams }: PageProps<"/s/[shopId]/audit">) {
  return <AuditLogPage shopId={(await params).shopId} searchParams={await searchParams} />;
}
