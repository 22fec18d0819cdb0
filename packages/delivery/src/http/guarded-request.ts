import http from 'node:http';
import https from 'node:https';
import { checkTarget, guardedLookup } from './ssrf-guard';

const MAX_RESPONSE_BYTES = 64 * 1024;

export interface Answer {
  status: number;
  location: string | undefined;
}

/**
 * One request to a target checked against `allowed` (before connecting to an IP literal, and on the
 * resolved address inside the socket's lookup), on a fresh connection, reading at most 64 kB of the
 * answer. Follows no redirect: the caller decides. Throws RefusedTargetError for a refused target.
 */
export function guardedRequest(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  allowed: (address: string) => boolean,
  signal: AbortSignal,
): Promise<Answer> {
  checkTarget(url, allowed);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method,
        headers: {
          'user-agent': 'iot-platform-notifier',
          ...headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
        lookup: guardedLookup(allowed),
        // A fresh connection per call: a pooled socket would skip the lookup and its check.
        agent: false,
        signal,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('close', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
        );
        response.on('error', () => resolve({ status: response.statusCode ?? 0, location: undefined }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
