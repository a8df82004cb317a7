// `npm run sandbox`: the marketplace sandbox on SANDBOX_HOST:SANDBOX_PORT (default 127.0.0.1:4010). See sandbox/README.md.
import { startSandboxServer } from "./app";
import { isExposed, loadSandboxConfig } from "./config";

async function main(): Promise<void> {
  const config = loadSandboxConfig();
  const started = performance.now();
  const sandbox = await startSandboxServer({ config });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`marketplace sandbox listening on ${sandbox.url} (${sandbox.handle.restored ? "restored" : "seeded"} in ${seconds} s)`);
  console.log(`  authorize: ${sandbox.url}/auth/integradores/oauth   api: ${sandbox.url}/v1.0/...`);
  console.log(
    `  integrator demo-integrator / demo-secret; users seller@example.com, seller2@example.com, Seller2@Example.com (another user), free@example.com (password demo1234)`,
  );
  if (config.seedSellers > 0) console.log(`  and ${config.seedSellers} more PRO sellers: seller-00001@example.com … (password demo1234)`);
  console.log(`  control API: ${config.controlEnabled ? `${sandbox.url}/_sandbox/` : "off (SANDBOX_CONTROL=off)"}`);
  if (config.stateFile !== undefined) {
    const how = sandbox.handle.restored ? "restored from" : "seeded afresh, saved to";
    console.log(
      `  state ${how} ${config.stateFile} (SANDBOX_STATE_FILE; epoch ${sandbox.handle.context.epoch}); POST /_sandbox/reset starts over`,
    );
  }
  if (isExposed(config)) {
    console.log(`  exposed on ${sandbox.address} (SANDBOX_HOST): see "Running the sandbox on a network" in sandbox/README.md`);
    if (config.controlEnabled) console.log("  control API calls need Authorization: Bearer <SANDBOX_CONTROL_TOKEN>");
    console.log(
      `  webhooks to loopback and private addresses: ${config.allowPrivateCallbacks ? "allowed (SANDBOX_ALLOW_PRIVATE_CALLBACKS=1)" : "refused"}`,
    );
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`sandbox: ${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("sandbox: error while shutting down", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
