/**
 * A local endpoint that answers like Twilio's REST API, for tests (architecture: the stand-in for a paid
 * cloud): POSTs to `.../Messages.json` and `.../Calls.json` get 201 with a new SID, as Twilio answers them,
 * anything else Twilio's 404. Every request is kept (path, authorization, the form). The real twilio
 * library talks to it through TWILIO_BASE_URL.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/** An error answer as Twilio gives it: HTTP status and Twilio's error code (say 400 and 21211). */
export interface TwilioRefusal {
  status: number;
  code: number;
  message: string;
}

export interface TwilioStandIn {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: TwilioRequest[];
  close(): Promise<void>;
}

/** `refuse` decides, per request, on an error answer in place of the 201 (undefined: accepted). */
export async function startTwilioStandIn(
  options: { refuse?: (request: TwilioRequest) => TwilioRefusal | undefined } = {},
): Promise<TwilioStandIn> {
  const requests: TwilioRequest[] = [];
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const request: TwilioRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        form: Object.fromEntries(new URLSearchParams(body)),
      };
      requests.push(request);
      const kind = req.url?.endsWith('/Calls.json') ? 'CA' : req.url?.endsWith('/Messages.json') ? 'SM' : '';
      if (req.method !== 'POST' || !kind) {
        answer(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
        return;
      }
      const refusal = options.refuse?.(request);
      if (refusal) {
        answer(res, refusal.status, { code: refusal.code, message: refusal.message, status: refusal.status });
        return;
      }
      const { form } = request;
      answer(res, 201, {
        sid: `${kind}${String(requests.length).padStart(32, '0')}`,
        status: 'queued',
        to: form.To,
        from: form.From,
        body: form.Body,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
