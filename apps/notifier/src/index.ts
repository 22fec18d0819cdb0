import type { Config } from '@iot/config';
import type { NotifyActionPayload } from '@iot/contracts';
import { checkDbReachable, type Db } from '@iot/db';
import {
  connectMqttDownlinks,
  createMailer,
  createTwilioClient,
  type DownlinkPublish,
  type Mailer,
  type MqttDownlinkClient,
  SmtpMailer,
  type TwilioClient,
} from '@iot/delivery';
import {
  type JobDefinition,
  type JobQueue,
  NOTIFY_ACTION,
  NOTIFY_ACTION_POLICY,
  NOTIFY_WATER,
  NOTIFY_WATER_POLICY,
  openJobQueue,
  purgeExpiredJobKeys,
  type QueuePolicy,
} from '@iot/jobs';
import type { Logger, Service } from '@iot/runtime';
import type { Channels } from './channels/channels';
import { createEmailChannel } from './channels/email-channel';
import { createFarmingTaskChannel } from './channels/farming-task-channel';
import { createHttpChannel } from './channels/http-channel';
import { createRemoteControlChannel } from './channels/remote-control-channel';
import { createSmsChannel } from './channels/sms-channel';
import { createSystemChannel } from './channels/system-channel';
import { createVoiceChannel } from './channels/voice-channel';
import { type ChannelLimits, createChannelLimiter } from './jobs/channel-limits';
import { handleNotifyAction } from './jobs/handle-notify-action';
import { handleNotifyWater } from './jobs/handle-notify-water';
import { NOTIFY_CHANNEL_LIMITS, SMTP_POOL_CONNECTIONS } from './jobs/notify-action.queue';
import { createActionLoader } from './load-action';
import { createNotificationLogWriter } from './notification-log';

export type { Channels, Delivery } from './channels/channels';
export type { EmailConfig } from './channels/email-channel';
export { createEmailChannel, messageIdFor } from './channels/email-channel';
export { createHttpChannel, type HttpChannelOptions, type HttpConfig } from './channels/http-channel';
export { createRemoteControlChannel, type RemoteControlConfig } from './channels/remote-control-channel';
export { createSmsChannel, type SmsConfig } from './channels/sms-channel';
export { createSystemChannel, type SystemConfig } from './channels/system-channel';
export { buildVoiceTwiml, createVoiceChannel, type VoiceConfig } from './channels/voice-channel';
export {
  type ActionContext,
  type ChannelKind,
  ChannelNotConfiguredError,
  type DeliveryResult,
  type NotificationChannel,
  PermanentDeliveryError,
} from './context';
export {
  type ChannelLimiter,
  type ChannelLimits,
  createChannelLimiter,
  type RateLimit,
} from './jobs/channel-limits';
export { NOTIFY_CHANNEL_LIMITS, SMTP_POOL_CONNECTIONS } from './jobs/notify-action.queue';
export {
  type ActionLoader,
  type ActionRequest,
  createActionLoader,
  fromPreloaded,
  type LoadedAction,
  loadAction,
} from './load-action';
export { createNotificationLogWriter, type NotificationLogWriter } from './notification-log';
export { fillPlaceholders, PLACEHOLDERS } from './placeholders';

export interface StartNotifierOptions {
  config: Config;
  db: Db;
  log: Logger;
  /**
   * The job queue to consume. The one-process platform should open one (`openJobQueue(config, { db })`)
   * and hand it to the rules worker and the notifier alike; without it the notifier opens its own from
   * config (in-process or BullMQ) and closes it on stop.
   */
  queue?: JobQueue;
  /**
   * How downlinks reach devices. The embedded platform passes the aedes broker's publish
   * (`aedesPublish(broker)`); unset in the distributed profile, an mqtt.js client to MQTT_URL is
   * connected on the first downlink. Unset in the embedded profile: remote control fails with code 95.
   */
  publishDownlink?: DownlinkPublish;
  /** Replaces the mailer built from SMTP_URL / MAIL_FROM. */
  mailer?: Mailer;
  /** Replaces the Twilio client built from TWILIO_*. */
  twilio?: TwilioClient;
  /** The notify.action definition (tests shorten its timeout and retries) and queue policy. */
  job?: JobDefinition<typeof NotifyActionPayload>;
  policy?: QueuePolicy;
  /** Sends per second per channel (default NOTIFY_CHANNEL_LIMITS); null: none beyond the queue policy. */
  channelLimits?: ChannelLimits | null;
  /** Timeout of one webhook call (default 10 s). */
  httpTimeoutMs?: number;
}

export interface NotifierService extends Service {
  readonly queue: JobQueue;
  readonly channels: Channels;
  /** Enqueues one rule action (the same as `enqueueNotifyAction(queue, payload)`). */
  enqueue(payload: NotifyActionPayload): Promise<{ id: string; idempotencyKey: string }>;
}

/**
 * Dispatches rule actions per channel: email, SMS, voice, system message, http call, downlink; and the
 * water usage warnings' mails, SMS and valve commands (notify.water).
 * The embedded platform calls this in its own process; `main.ts` runs it standalone (distributed profile).
 */
export async function startNotifier(options: StartNotifierOptions): Promise<NotifierService> {
  const { config, db } = options;
  const log = options.log.child({ app: 'notifier' });
  // Fail fast when the database is unreachable rather than on the first job.
  await checkDbReachable(db);

  const ownQueue = options.queue === undefined;
  const queue = options.queue ?? openJobQueue(config, { db });
  const mailer = options.mailer ?? createMailer(config, db, { maxConnections: SMTP_POOL_CONNECTIONS });
  const twilio = options.twilio ?? createTwilioClient(config);

  let mqttClient: Promise<MqttDownlinkClient> | undefined;
  const publish = async (): Promise<DownlinkPublish | undefined> => {
    if (options.publishDownlink) return options.publishDownlink;
    if (config.PROFILE !== 'distributed') return undefined;
    mqttClient ??= connectMqttDownlinks(config.MQTT_URL).catch((error: unknown) => {
      mqttClient = undefined;
      throw error;
    });
    return (await mqttClient).publish;
  };

  const channels: Channels = {
    email: createEmailChannel(mailer),
    sms: createSmsChannel(twilio, config.TWILIO_FROM, db),
    voice_message: createVoiceChannel(twilio, config.TWILIO_FROM, db),
    system: createSystemChannel(db),
    http: createHttpChannel({
      allowPrivate: config.HTTP_ACTIONS_ALLOW_PRIVATE,
      ...(options.httpTimeoutMs === undefined ? {} : { timeoutMs: options.httpTimeoutMs }),
    }),
    remote_control: createRemoteControlChannel(db, publish, {
      allowPrivateTargets: config.HTTP_ACTIONS_ALLOW_PRIVATE,
    }),
    farming_task: createFarmingTaskChannel(db),
  };

  const job = options.job ?? NOTIFY_ACTION;
  const limits = options.channelLimits === undefined ? NOTIFY_CHANNEL_LIMITS : options.channelLimits;
  const deps = {
    channels,
    log,
    load: createActionLoader(db),
    writeLog: createNotificationLogWriter(db),
    ...(limits ? { limiter: createChannelLimiter(limits) } : {}),
  };
  const processor = queue.process(
    job,
    (payload, ctx) => handleNotifyAction(deps, payload, ctx),
    options.policy ?? NOTIFY_ACTION_POLICY,
  );
  // Water usage warnings (issue #26): mail, SMS and valve closing through the same channels.
  const waterProcessor = queue.process(
    NOTIFY_WATER,
    (payload, ctx) => handleNotifyWater({ db, channels, log }, payload, ctx),
    NOTIFY_WATER_POLICY,
  );
  // Keys live 7 days (job_keys.expires_at); an hourly purge keeps the table small. Several notifiers
  // purging at once only delete the same rows.
  const purge = setInterval(
    () => {
      purgeExpiredJobKeys(db).catch((error: unknown) =>
        log.warn({ error: String(error) }, 'job key purge failed'),
      );
    },
    60 * 60 * 1000,
  );
  purge.unref();
  log.info(
    {
      profile: config.PROFILE,
      queue: queue.kind,
      email: config.SMTP_URL ? 'smtp' : 'outbox',
      twilio: twilio !== undefined,
    },
    'notifier ready',
  );

  return {
    name: 'notifier',
    checks: [{ name: 'job_queue', check: () => queue.ready() }],
    queue,
    channels,
    enqueue: (payload) => queue.enqueue(job, payload),
    stop: async () => {
      clearInterval(purge);
      await processor.close();
      await waterProcessor.close();
      if (ownQueue) await queue.close();
      if (mqttClient) await (await mqttClient.catch(() => undefined))?.close();
      if (mailer instanceof SmtpMailer && !options.mailer) mailer.close();
    },
  };
}
