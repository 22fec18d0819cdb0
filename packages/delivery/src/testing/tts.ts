/**
 * A local stand-in for The Things Stack v3's webhook downlink API, for tests (TTS is not installed here):
 * an HTTP server on a free loopback port that records every push (path, authorization, JSON body) and
 * answers `status` with `{}`, as TTS answers a push. Its address is private, so the platform must run with
 * HTTP_ACTIONS_ALLOW_PRIVATE (or `allowPrivateTargets`) to reach it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TtsPush {
  path: string;
  authorization: string | undefined;
  body: {
    downlinks: {
      f_port: number;
      frm_payload: string;
      priority: string;
      confirmed?: boolean;
      correlation_ids?: string[];
    }[];
  };
}

export interface TtsStandIn {
  /** http://127.0.0.1:<port> */
  base: string;
  pushed: TtsPush[];
  close(): Promise<void>;
}

export async function startTtsStandIn(status = 200): Promise<TtsStandIn> {
  const pushed: TtsPush[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      pushed.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        body: JSON.parse(text),
      });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pushed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
