import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '@iot/delivery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentDeliveryError } from '../context';
import { testContext } from '../test-support/fixtures';
import { createHttpChannel } from './http-channel';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let port: number;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/slow') return; // never answers: the timeout has to end it
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(302, { location: new URL(req.url, 'http://x').searchParams.get('to') ?? '/' });
        res.end();
        return;
      }
      res.writeHead(req.url === '/missing' ? 404 : 200);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('http action target checks (HTTP_ACTIONS_ALLOW_PRIVATE false)', () => {
  const channel = createHttpChannel({ allowPrivate: false, timeoutMs: 2_000 });
  it.each([
    ['IPv4 loopback', 'http://127.0.0.1:{port}/hook', 'not a public address'],
    ['IPv6 loopback', 'http://[::1]:{port}/hook', 'not a public address'],
    ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/', 'not a public address'],
    ['private 10/8', 'http://10.0.0.1/hook', 'not a public address'],
    ['private 192.168/16', 'http://192.168.1.1/hook', 'not a public address'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:{port}/hook', 'not a public address'],
    ['unspecified 0.0.0.0', 'http://0.0.0.0:{port}/hook', 'not a public address'],
    ['IPv6 unique local', 'http://[fd00::1]/hook', 'not a public address'],
    ['a host name resolving to 127.0.0.1', 'http://localhost:{port}/hook', 'resolves to 127.0.0.1'],
    ['a scheme other than http(s)', 'file:///etc/passwd', 'only http and https'],
  ])('refuses %s', async (_name, url, reason) => {
    const before = seen.length;
    const sending = channel.send(testContext(), {
      method: 'POST',
      url: url.replace('{port}', String(port)),
      headers: {},
      body: null,
    });
    await expect(sending).rejects.toBeInstanceOf(PermanentDeliveryError);
    await expect(sending).rejects.toThrow(reason);
    expect(seen.length).toBe(before);
  });

  it('checks the address again on every redirect', async () => {
    // Only the test server's own address counts as allowed here, so the first hop goes through and the
    // redirect to another loopback address must be refused by the same check.
    const narrow = createHttpChannel({
      allowPrivate: false,
      isAllowedAddress: (address) => address === '127.0.0.1',
    });
    const before = seen.length;
    await expect(
      narrow.send(testContext(), {
        method: 'GET',
        url: `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${port}/inner`)}`,
        headers: {},
        body: null,
      }),
    ).rejects.toThrow('http action to 127.0.0.2 refused');
    expect(seen.slice(before).map((s) => s.url)).toEqual([
      `/redirect?to=${encodeURIComponent(`http://127.0.0.2:${port}/inner`)}`,
    ]);
  });

  it.each([
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
    ['100.64.0.1', false], // carrier-grade NAT
    ['fe80::1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
  ])('classifies %s as public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('http action to a local server (HTTP_ACTIONS_ALLOW_PRIVATE true)', () => {
  const channel = createHttpChannel({ allowPrivate: true, timeoutMs: 300 });

  it('sends method, headers and the JSON body with placeholders filled and JSON-escaped', async () => {
    const before = seen.length;
    const result = await channel.send(testContext(), {
      method: 'PUT',
      url: `http://127.0.0.1:${port}/hook?x=1`,
      headers: { authorization: 'Bearer abc' },
      body: '{"text": "{device}: {field} {value} {unit}", "at": "{time}", "rule": "{rule}"}',
    });
    expect(result).toMatchObject({ status: 'sent', reference: '200' });
    const request = seen[before]!;
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/hook?x=1');
    expect(request.headers.authorization).toBe('Bearer abc');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      text: 'Tank "7": Temperature 31.5 °C',
      at: '2026-07-01 14:00:00 CEST',
      rule: 'Too hot',
    });
  });

  it('follows a redirect', async () => {
    const before = seen.length;
    await channel.send(testContext(), {
      method: 'GET',
      url: `http://localhost:${port}/redirect?to=/final`,
      headers: {},
      body: null,
    });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/redirect?to=/final', '/final']);
  });

  it('gives up after the timeout (300 ms), as a retryable failure', async () => {
    const started = Date.now();
    const sending = channel.send(testContext(), {
      method: 'POST',
      url: `http://127.0.0.1:${port}/slow`,
      headers: {},
      body: null,
    });
    await expect(sending).rejects.toThrow('http action timed out after 300 ms');
    await expect(sending).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('treats 404 as permanent and refuses a body that is not JSON', async () => {
    await expect(
      channel.send(testContext(), {
        method: 'POST',
        url: `http://127.0.0.1:${port}/missing`,
        headers: {},
        body: null,
      }),
    ).rejects.toBeInstanceOf(PermanentDeliveryError);
    await expect(
      channel.send(testContext(), {
        method: 'POST',
        url: `http://127.0.0.1:${port}/x`,
        headers: {},
        body: '{device}',
      }),
    ).rejects.toThrow('not valid JSON');
  });
});
