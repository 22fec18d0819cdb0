/** WHATWG URL, a global in browsers and Node alike; the domain compiles without either's typings. */
interface ParsedUrl {
  protocol: string;
  host: string;
  pathname: string;
  search: string;
  hash: string;
  username: string;
  password: string;
}
declare const URL: new (input: string) => ParsedUrl;

/**
 * The address of a LoRaWAN network server's gRPC API (ChirpStack v4) as the platform stores it:
 * `http://host[:port]` (plaintext HTTP/2) or `https://host[:port]` (TLS). gRPC has no base path, and the
 * API token has a field of its own, so a path, query, fragment or credentials in the address are refused
 * rather than silently dropped. Returns the normalised address, or null when the text is not one.
 */
export function normaliseNetworkServerUrl(value: string): string | null {
  let url: ParsedUrl;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const bare = (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  if (!['http:', 'https:'].includes(url.protocol) || !bare || url.username || url.password) return null;
  return `${url.protocol}//${url.host}`;
}
