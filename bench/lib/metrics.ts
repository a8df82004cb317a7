// Reading a dashboard's Prometheus text (lib/metrics-server.server.ts) from a bench.

export interface MetricSample {
  /** The text between the braces, `gate="room"`; empty for a sample without labels. */
  labels: string;
  value: number;
}

/** The samples of the metric `name` (its exact name, not one it prefixes) at `url`. */
export async function scrapeMetric(url: string, name: string): Promise<MetricSample[]> {
  const text = await (await fetch(url)).text();
  const samples: MetricSample[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || (line[name.length] !== "{" && line[name.length] !== " ")) continue;
    const labels = line[name.length] === "{" ? line.slice(name.length + 1, line.lastIndexOf("}")) : "";
    samples.push({ labels, value: Number(line.slice(line.lastIndexOf(" ") + 1)) });
  }
  return samples;
}
