// Importing the environment module validates it: a bad or incomplete environment stops
// `next dev`, `next build` and `next start` here, with a message naming the variable.
import "./lib/env.js";
import createNextIntlPlugin from "next-intl/plugin";

// Languages, time zone and catalogues per request: i18n/request.ts.
// The catalogues (messages/<locale>/<area>.json) are compiled at build time, so that the browser gets
// next-intl's small formatter instead of its ICU parser (about 12 kB gzipped on every page;
// bench:mobile, issue 40).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // `npm test` type-checks the whole project (`npm run typecheck`) before any build; repeating it
  // inside every `next build` (e2e, benchmarks) would only double the wait on a 2-core machine.
  typescript: { ignoreBuildErrors: true },
  // Loaded by Node, not bundled: prom-client keeps process-wide state (the event-loop monitor, its
  // default metrics), which one copy per bundle would duplicate. pino and pino-pretty are on
  // Next.js's own list of such packages already.
  serverExternalPackages: ["prom-client"],
  // Workspace packages the app imports, shipped as TypeScript source (packages/*).
  transpilePackages: ["@marketplace/api", "@marketplace/network-policy"],
  // `npm run bench:webhooks -- --profile` builds with BENCH_READABLE_PROFILE=1: code left unminified,
  // so the CPU profile names the app's own functions. Never set for a build that is served.
  ...(process.env.BENCH_READABLE_PROFILE === "1" ? { experimental: { turbopackMinify: false } } : {}),
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
