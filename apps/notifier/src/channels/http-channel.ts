import { guardedRequest, isPublicAddress, RefusedTargetError } from '@iot/delivery';
import { type ActionContext, type NotificationChannel, PermanentDeliveryError } from '../context';
import { fillJsonPlaceholders } from '../placeholders';

/** Webhook action: method, URL, headers and a JSON body template with placeholders. */
export interface HttpConfig {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** JSON text with placeholders inside strings (`{"text": "{device} {value}"}`); null: the default body. */
  body: string | null;
}

export interface HttpChannelOptions {
  /** HTTP_ACTIONS_ALLOW_PRIVATE: allow loopback, link-local and private targets. */
  allowPrivate: boolean;
  /**
   * Which resolved addresses may be called when allowPrivate is false (default: public unicast only).
   * Tests narrow it to one local server to prove that redirects are checked too.
   */
  isAllowedAddress?: (address: string) => boolean;
  /** Whole request, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The body sent without a template: the context as JSON. */
export function defaultHttpBody(ctx: ActionContext): Record<string, unknown> {
  return {
    company: ctx.company.id,
    device: ctx.device,
    rule: ctx.rule,
    alarm: ctx.alarmId,
    field: ctx.field,
    value: ctx.value,
    unit: ctx.unit,
    time: ctx.at.toISOString(),
    idempotency_key: ctx.idempotencyKey,
  };
}

export function renderHttpBody(ctx: ActionContext, template: string | null): string {
  if (template === null || template.trim() === '') return JSON.stringify(defaultHttpBody(ctx));
  const text = fillJsonPlaceholders(template, ctx);
  try {
    JSON.parse(text);
  } catch {
    throw new PermanentDeliveryError('the http action body is not valid JSON after filling the placeholders');
  }
  return text;
}

/**
 * Calls the webhook. Refused targets (checked on the resolved address, again on every redirect) and 4xx
 * answers other than 408 and 429 are permanent; timeouts, connection errors and 5xx are retried by the job.
 */
export function createHttpChannel(options: HttpChannelOptions): NotificationChannel<HttpConfig> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 3;
  const allowed = options.allowPrivate ? () => true : (options.isAllowedAddress ?? isPublicAddress);
  return {
    kind: 'http',
    async send(ctx: ActionContext, config: HttpConfig) {
      let url: URL;
      try {
        url = new URL(config.url);
      } catch {
        throw new PermanentDeliveryError(`invalid http action URL ${JSON.stringify(config.url)}`);
      }
      let method: string = config.method;
      let body: string | undefined = method === 'GET' ? undefined : renderHttpBody(ctx, config.body);
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        for (let hop = 0; ; hop++) {
          const answer = await guardedRequest(url, method, config.headers, body, allowed, signal);
          if (REDIRECTS.has(answer.status) && answer.location) {
            if (hop >= maxRedirects) throw new PermanentDeliveryError(`more than ${maxRedirects} redirects`);
            url = new URL(answer.location, url);
            if (
              answer.status === 303 ||
              ((answer.status === 301 || answer.status === 302) && method === 'POST')
            ) {
              method = 'GET';
              body = undefined;
            }
            continue;
          }
          if (answer.status >= 200 && answer.status < 300) {
            return { recipient: config.url, status: 'sent', reference: String(answer.status) };
          }
          const message = `http action answered ${answer.status}`;
          if (answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429) {
            throw new PermanentDeliveryError(message);
          }
          throw new Error(message);
        }
      } catch (error) {
        if (error instanceof RefusedTargetError) throw new PermanentDeliveryError(error.message);
        if (signal.aborted) throw new Error(`http action timed out after ${timeoutMs} ms`);
        throw error;
      }
    },
  };
}
