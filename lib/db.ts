import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";

function createPrismaClient() {
  const client = new PrismaClient({
    adapter: new PrismaBetterSQLite3({ url: env.DATABASE_URL }),
    log: env.NODE_ENV === "development" ? ["warn", "error"] : ["error"],
  });
  // The adapter holds one connection, so this per-connection setting holds for every query.
  // NORMAL is durable across application crashes in WAL mode and saves an fsync per commit.
  void client.$executeRawUnsafe("PRAGMA synchronous = NORMAL").catch(() => {});
  return client;
}

// One client per process; in development it survives hot reloads on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: ReturnType<typeof createPrismaClient> };

export const db = globalForPrisma.prisma ?? createPrismaClient();

if (env.NODE_ENV !== "production") globalForPrisma.prisma = db;
