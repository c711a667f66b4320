/** kubectl's human duration (`k8s.io/apimachinery/pkg/util/duration.HumanDuration`): 45s, 5m, 3h20m, 2d3h, 400d, 3y… */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8)
    return Math.floor(hours / 24) % 365 === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${Math.floor(hours / 24) % 365}d`;
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** The age of a timestamp as kubectl prints it; `<unknown>` when absent. */
export const age = (timestamp: unknown, now = Date.now()): string =>
  typeof timestamp === 'string' && !Number.isNaN(Date.parse(timestamp)) ? humanDuration(now - Date.parse(timestamp)) : '<unknown>';
