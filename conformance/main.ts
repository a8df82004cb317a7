// `npm run conformance -- --base-url URL --token TOKEN [...]`: checks a platform against the
// integration spec and prints one line per check and a summary. See "Check your integration
// against the platform" in the repository's README.md; the checks live in checks/.
import { parseConformanceArgs, USAGE } from "./options";
import { formatResult, formatSummary } from "./report";
import { runConformance } from "./run";

async function main(): Promise<number> {
  const parsed = parseConformanceArgs(process.argv.slice(2), process.env);
  if (parsed.kind === "help") {
    console.log(USAGE);
    return 0;
  }
  if (parsed.kind === "error") {
    console.error(`conformance: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const { options } = parsed;

  // The first Ctrl-C stops the run but still puts the callback URL back; a second one quits.
  const interrupt = new AbortController();
  process.on("SIGINT", () => {
    if (interrupt.signal.aborted) process.exit(130);
    console.error("conformance: interrupted; restoring what the run changed (Ctrl-C again to quit at once)");
    interrupt.abort();
  });

  const writes = options.allowWrites
    ? `on${options.listen === undefined ? "" : ", webhook round trip"}`
    : "off (--allow-writes to check SKU and price creation)";
  console.log(`Conformance of ${options.baseUrl}${options.authUrl ? ` (authorization: ${options.authUrl})` : ""}; writes ${writes}`);
  const report = await runConformance(options, { signal: interrupt.signal, onResult: (result) => console.log(formatResult(result)) });
  const interrupted = interrupt.signal.aborted;
  console.log(formatSummary(report.summary, { interrupted }));
  if (report.summary.failed > 0) return 1;
  // An interrupted run proved nothing about the checks it skipped.
  return interrupted ? 130 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("conformance: the kit failed", error);
    process.exit(2);
  },
);
