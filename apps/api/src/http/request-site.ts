import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { plainAddress, type ClientIpResolver } from './client-ip.js';

const WILDCARD_BINDS = new Set(['', '0.0.0.0', '::']);
const INTERFACES_TTL_MS = 10_000;

/** The right-most entry of a forwarded header: the one the nearest proxy wrote. */
const lastEntry = (header: string | string[] | undefined): string | undefined =>
  (Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1)?.trim() || undefined;

/** `host[:port]` → its lower-case host name (an IPv6 one without brackets, no trailing dot); undefined if it is not a host. */
export function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return plainAddress(url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, ''));
  } catch {
    return undefined;
  }
}

const isLoopback = (name: string): boolean => (isIP(name) === 4 ? name.startsWith('127.') : name === '::1');
const isLocalhostName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost') || isLoopback(name);

/**
 * What a request asked for, as the api sees it through `api.trustedProxies` (X-Forwarded-Host and
 * X-Forwarded-Proto of a trusted peer, else Host and the socket), and whether the api answers to that host.
 * It does to: the addresses it listens on (every local address when it listens on all), `localhost`
 * names and loopback addresses, the names in `api.allowedHosts`, and a host a trusted proxy forwards.
 * Another Host (a DNS name rebound to this address by a web page) is refused.
 */
export class RequestSite {
  private readonly anyHost: boolean;
  private readonly names: readonly string[];
  private interfaces = { at: -Infinity, addresses: new Set<string>() };

  constructor(
    allowedHosts: readonly string[],
    private readonly bindHost: string,
    private readonly proxies: ClientIpResolver,
  ) {
    this.anyHost = allowedHosts.includes('*');
    this.names = allowedHosts.map((name) => name.toLowerCase().replace(/^\*\./, '.').replace(/\.$/, ''));
  }

  /** The host and scheme the client asked for; `forwarded` when a trusted proxy told them. */
  asked(request: IncomingMessage): { host?: string; proto: string; forwarded: boolean } {
    const trusted = this.proxies.isTrusted(request.socket.remoteAddress);
    const forwardedHost = trusted ? lastEntry(request.headers['x-forwarded-host']) : undefined;
    const forwardedProto = trusted ? lastEntry(request.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
    const ownProto = 'encrypted' in request.socket && request.socket.encrypted ? 'https' : 'http';
    return {
      host: forwardedHost ?? request.headers.host,
      proto: forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : ownProto,
      forwarded: forwardedHost !== undefined,
    };
  }

  hostAllowed(request: IncomingMessage): boolean {
    const { host, forwarded } = this.asked(request);
    // No Host at all (HTTP/1.0) is no browser; a trusted proxy answers for the host it forwards.
    if (this.anyHost || host === undefined || forwarded) return true;
    const name = hostnameOf(host);
    if (name === undefined) return false;
    return isLocalhostName(name) || this.isBound(name) || this.names.some((entry) => entry === name || (entry.startsWith('.') && name.endsWith(entry)));
  }

  /** `scheme://host[:port]` of the api as this request reached it (what a page of its own sends as Origin). */
  ownOrigin(request: IncomingMessage): string | undefined {
    const { host, proto } = this.asked(request);
    if (!host) return undefined;
    try {
      return new URL(`${proto}://${host}`).origin;
    } catch {
      return undefined;
    }
  }

  private isBound(name: string): boolean {
    const bind = plainAddress(this.bindHost.toLowerCase());
    if (!WILDCARD_BINDS.has(bind)) return name === bind;
    if (Date.now() - this.interfaces.at > INTERFACES_TTL_MS) {
      const addresses = Object.values(networkInterfaces()).flatMap((list) =>
        (list ?? []).map((entry) => plainAddress(entry.address.split('%')[0].toLowerCase())),
      );
      this.interfaces = { at: Date.now(), addresses: new Set(addresses) };
    }
    return this.interfaces.addresses.has(name);
  }
}
