// The audit log feature's public entry: what the app's routes and other features may import.
// Entries are written by every feature through the kernel (recordAudit, lib/audit/audit.server.ts);
// reading them, describing them in words and exporting them is this feature's.
export { auditExportResponse } from "./export-route.server";
