// The driver adapter the Prisma CLI (migrate, db pull, diff) uses, and only the CLI: the app
// uses PrismaPg directly (lib/db.server.ts). Prisma 6.19.3's CLI path through @prisma/adapter-pg has
// four upstream bugs, each reproduced on this project (../shared/POSTGRES.md); this wrapper
// fixes them without patching node_modules. Re-test it whenever Prisma is upgraded:
// tests/integration/migrate.test.ts runs deploy and new-migration end to end.
//  1. Catalog columns of type `name` (OID 19) and `"char"` (OID 18) are refused ("could not be
//     deserialized", prisma/orm#27403): they are reported as text and as a character type.
//  2. The shadow database is created but the pool connects to the main one (`database` next to a
//     `connectionString` is ignored by pg), and it is dropped while still in use: we create a
//     uniquely named one ourselves, point the URL at it, and drop it WITH (FORCE) after closing.
//  3. Migration scripts are split on every `;`, which breaks plpgsql bodies: the script is sent
//     whole (it then runs as one implicit transaction, so CREATE INDEX CONCURRENTLY needs a
//     migration of its own).
//  4. The pool keeps the CLI alive: `allowExitOnIdle`. (The WASM engine's 10 s timer is unref'd by
//     prisma/cli-preload.cjs, which scripts/lib/prisma-cli.ts loads.)
import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQueryable } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { createDatabase, dropDatabase, withDatabase } from "./pg-admin";

const PG_NAME = 19;
const PG_CHAR = 18;
const PG_TEXT = 25;

// The adapter maps no OID to Prisma's Character column type (and reporting `"char"` as text
// crashes the engine), so `"char"` columns are reported as text to the adapter, remembered by
// their result's rows array, and set to Character on the adapter's answer (withCharacterColumns).
const charColumnsByRows = new WeakMap<object, number[]>();

function reportCatalogTypes(result: unknown) {
  const { fields = [], rows } = result as Partial<pg.QueryResult>;
  const charColumns: number[] = [];
  fields.forEach((field, index) => {
    if (field.dataTypeID === PG_NAME) field.dataTypeID = PG_TEXT;
    else if (field.dataTypeID === PG_CHAR) {
      field.dataTypeID = PG_TEXT;
      charColumns.push(index);
    }
  });
  if (charColumns.length > 0 && rows) charColumnsByRows.set(rows, charColumns);
  return result;
}

function withCharacterColumns<T extends SqlQueryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  return queryable;
}

/** A pg.Client whose promise results report `name`/`"char"` columns as types Prisma reads (bug 1). */
function CatalogTypesClient(config: pg.ClientConfig) {
  const client = new pg.Client(config);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    // pg-pool calls with a callback; the adapter's transactions with a promise.
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => last(error, error ? result : reportCatalogTypes(result));
      return query(...args);
    }
    const result = query(...args);
    return result instanceof Promise ? result.then(reportCatalogTypes) : result;
  }) as typeof client.query;
  return client;
}

function poolConfig(connectionString: string): pg.PoolConfig {
  return {
    connectionString,
    Client: CatalogTypesClient as unknown as new () => pg.ClientBase,
    allowExitOnIdle: true,
  };
}

/** Bugs 1 and 3 on one adapter: character columns, and scripts sent whole. */
function fixAdapter<T extends SqlDriverAdapter & { underlyingDriver(): pg.Pool }>(adapter: T): T {
  withCharacterColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => withCharacterColumns(await startTransaction(isolationLevel));
  // One script, one round trip, errors mapped the way the adapter maps its own.
  adapter.executeScript = async (script: string) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (error) {
      (adapter as unknown as { onError(error: unknown): never }).onError(error);
    }
  };
  return adapter;
}

export function prismaCliAdapter(connectionString: string): SqlMigrationAwareDriverAdapterFactory {
  const main = new PrismaPg(poolConfig(connectionString));
  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: async () => fixAdapter(await main.connect()),
    // Bug 2.
    connectToShadowDb: async () => {
      const name = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
      const url = withDatabase(connectionString, name);
      await createDatabase(url);
      const adapter = fixAdapter(await new PrismaPg(poolConfig(url)).connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await dropDatabase(url);
      };
      return adapter;
    },
  };
}
