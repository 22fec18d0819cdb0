import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** A target the http action may not call: loopback, link-local, private, reserved, multicast, ... */
export class RefusedTargetError extends Error {
  override readonly name = 'RefusedTargetError';
}

/**
 * True only for globally routed unicast addresses. ipaddr.js classifies the special ranges (IPv4
 * loopback, private, linkLocal incl. 169.254.169.254, carrierGradeNat, reserved, broadcast; IPv6
 * loopback, uniqueLocal, linkLocal, unspecified, multicast and the IPv4-embedding ranges 6to4,
 * teredo, rfc6052/rfc6145); IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or undefined for a host name. */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) === 0 ? undefined : bare;
}

/**
 * Resolves `hostname` and refuses it when ANY resolved address is not allowed (a name with one private
 * address among public ones is refused). `what` names the caller in the refusal: `http action to
 * example.com refused: ...`.
 */
export async function lookupAllowed(
  hostname: string,
  allowed: (address: string) => boolean,
  what: string,
  options: dns.LookupOptions = {},
): Promise<dns.LookupAddress[]> {
  const addresses = await dns.promises.lookup(hostname, { ...options, all: true });
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) {
    throw new RefusedTargetError(
      `${what} ${hostname} refused: it resolves to ${refused.address}, not a public address`,
    );
  }
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  return addresses;
}

/**
 * A `lookup` for http.request through lookupAllowed. The socket then connects to exactly the address
 * checked here, so a name that resolves to a public address for a check and a private one for the
 * connection (DNS rebinding) gets nowhere.
 */
export function guardedLookup(allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookupAllowed(hostname, allowed, 'http action to', options).then(
      (addresses) => {
        if (options.all) {
          (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
        } else {
          const first = addresses[0]!;
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** Checks what can be checked before connecting: scheme and an IP literal host. */
export function checkTarget(url: URL, allowed: (address: string) => boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RefusedTargetError(`http action to ${url.protocol} refused: only http and https`);
  }
  const literal = ipLiteral(url.hostname);
  // Node connects to an IP literal without calling lookup, so literals are judged here.
  if (literal !== undefined && !allowed(literal)) {
    throw new RefusedTargetError(`http action to ${literal} refused: not a public address`);
  }
}

/**
 * Why the platform will not call `url` (an http action, a network server), checked when it is saved so
 * the refusal reaches the person typing it rather than a log at send time: an IP literal or a name that
 * resolves to loopback, private, link-local or reserved space. A name that does not resolve now passes:
 * DNS may simply be down, and the send-time guard judges it again.
 */
export async function privateTargetReason(url: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // the caller's own URL check names malformed input
  }
  try {
    checkTarget(parsed, isPublicAddress);
    if (ipLiteral(parsed.hostname) === undefined)
      await lookupAllowed(parsed.hostname, isPublicAddress, 'target');
    return undefined;
  } catch (error) {
    return error instanceof RefusedTargetError ? error.message : undefined;
  }
}
