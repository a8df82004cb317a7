import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";

function createPrismaClient() {
  return new PrismaClient({
    // Sessions in UTC: DateTime columns are `timestamp without time zone` read as UTC.
    adapter: new PrismaPg({ connectionString: env.DATABASE_URL, options: "-c timezone=UTC", application_name: "dashboard" }),
    log: env.NODE_ENV === "development" ? ["warn", "error"] : ["error"],
  });
}

// One client per process; in development it survives hot reloads on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: ReturnType<typeof createPrismaClient> };

export const db = globalForPrisma.prisma ?? createPrismaClient();

if (env.NODE_ENV !== "production") globalForPrisma.prisma = db;
