/** The value of a metric's sample whose labels include `label` in a Prometheus text exposition; undefined when absent. */
export function metricSample(text: string, name: string, label: string): number | undefined {
  const found = text.split('\n').find((line) => line.startsWith(`${name}{`) && line.includes(label));
  return found === undefined ? undefined : Number(found.slice(found.lastIndexOf(' ') + 1));
}

/** A service's `/metrics` text. */
export async function metricsOf(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}
