import type { NotificationChannel } from '../context';
import type { EmailConfig } from './email-channel';
import type { FarmingTaskConfig } from './farming-task-channel';
import type { HttpConfig } from './http-channel';
import type { RemoteControlConfig } from './remote-control-channel';
import type { SmsConfig } from './sms-channel';
import type { SystemConfig } from './system-channel';
import type { VoiceConfig } from './voice-channel';

/** Every channel of the notifier, by the rule action type it serves. */
export interface Channels {
  email: NotificationChannel<EmailConfig>;
  sms: NotificationChannel<SmsConfig>;
  voice_message: NotificationChannel<VoiceConfig>;
  system: NotificationChannel<SystemConfig>;
  http: NotificationChannel<HttpConfig>;
  remote_control: NotificationChannel<RemoteControlConfig>;
  farming_task: NotificationChannel<FarmingTaskConfig>;
}

type ConfigOf<C> = C extends NotificationChannel<infer X> ? X : never;

/** One send: a channel, its config and the recipient it is logged (and deduplicated) under. */
export type Delivery = {
  [K in keyof Channels]: { kind: K; config: ConfigOf<Channels[K]>; recipient: string };
}[keyof Channels];
