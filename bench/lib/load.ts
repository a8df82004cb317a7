import autocannon from "autocannon";

/** Exact percentile of sorted latencies (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface LoadResult {
  result: autocannon.Result;
  /** Every response time in ms, sorted: autocannon's histogram reports no p95. */
  latencies: number[];
  p50: number;
  p95: number;
  p99: number;
}

/** Runs autocannon and keeps every response time, for exact percentiles. */
export function runLoad(options: autocannon.Options): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      resolve({ result, latencies, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) });
    });
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}
