// Delivery: mail (SMTP or the outbox), SMS and voice through Twilio, the SSRF-guarded http request, and
// the downlink transports (MQTT, ChirpStack, The Things Stack). Used by the notifier and the API.
export {
  aedesPublish,
  connectMqttDownlinks,
  type DownlinkPublish,
  downlinkTopic,
  type MqttDownlinkClient,
} from './downlinks/downlink-transport';
export { NetworkServerRefusedError } from './downlinks/network-server-refused';
export {
  type DownlinkDevice,
  type DownlinkRoute,
  findDownlinkRoute,
  isDownlinkError,
  loadDownlinkDevice,
  type SendDownlinkOptions,
  type SentDownlink,
  sendDownlink,
} from './downlinks/send-downlink';
export { PermanentDeliveryError } from './errors';
export { type Answer, guardedRequest } from './http/guarded-request';
export { isPublicAddress, privateTargetReason, RefusedTargetError } from './http/ssrf-guard';
export { createMailer } from './mail/create-mailer';
export { type Mailer, type MailMessage, type MailResult, recipients } from './mail/mailer';
export { type OutboxRecord, recordOutboxEmail, recordOutboxEmails } from './mail/outbox';
export { OutboxMailer } from './mail/outbox-mailer';
export { SmtpMailer, type SmtpMailerOptions, transportOptions } from './mail/smtp-mailer';
export { toE164 } from './phone/phone-number';
export { classifyTwilioError, createTwilioClient, type TwilioClient } from './phone/twilio-client';
