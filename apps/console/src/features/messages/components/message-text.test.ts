import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../../locales/de';
import { en } from '../../../locales/en';
import type { Message } from '../types';
import { messageText } from './message-text';

const base = {
  id: 1,
  user_id: null,
  subject: 'stored subject',
  body: 'stored body',
  level: 3,
  is_read: false,
  read_at: null,
  device_id: 7,
  rule_id: 3,
  created_at: '2026-11-27T20:00:00Z',
};

describe('messageText', () => {
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await i18n.init({ lng: 'de', resources: { de: { translation: de }, en: { translation: en } } });
  });

  const failedMail: Message = {
    ...base,
    kind: 'action_failed',
    params: {
      action_id: 4,
      rule: 'Zu warm',
      device: 'Kühlraum',
      channel: 'email',
      recipient: 'ops@example.test',
      command: null,
      error: 'connect ECONNREFUSED',
      attempts: 5,
    },
  };

  it('words a failed action in the reader’s language, with the attempts counted', () => {
    expect(messageText(failedMail, i18n.getFixedT('de'), 'de')).toEqual({
      subject: 'Aktion nicht ausgeführt: Zu warm',
      body: expect.stringMatching(
        /^E-Mail an ops@example\.test \(Gerät Kühlraum\) ist fehlgeschlagen, auch nach 5 Versuchen: connect ECONNREFUSED\. /,
      ),
    });
    const once = { ...failedMail, params: { ...failedMail.params, attempts: 1 } };
    expect(messageText(once, i18n.getFixedT('en'), 'en').body).toMatch(
      /^Email to ops@example\.test \(device Kühlraum\) failed: connect ECONNREFUSED\. /,
    );
  });

  it('words a failed command with the command’s name and its target device', () => {
    const command: Message = {
      ...base,
      kind: 'action_failed',
      params: {
        ...failedMail.params,
        channel: 'remote_control',
        recipient: 'Ventil 3',
        command: 'reboot',
        error: '95 The downlink could not be sent: broker unreachable',
        attempts: 5,
      },
    };
    expect(messageText(command, i18n.getFixedT('de'), 'de').body).toMatch(
      /^Der Befehl „Gerät neu starten“ der Regel an Ventil 3 \(auf eine Meldung von Kühlraum\) konnte nicht gesendet werden: 95 /,
    );
  });

  it('words repeated failed sign-ins to the reader’s account', () => {
    const failures: Message = {
      ...base,
      kind: 'login_failures',
      params: { failures: 5, addresses: 2, minutes: 15 },
    };
    expect(messageText(failures, i18n.getFixedT('de'), 'de')).toEqual({
      subject: 'Fehlgeschlagene Anmeldungen bei Ihrem Konto',
      body: expect.stringMatching(
        /^5 fehlgeschlagene Anmeldungen bei Ihrem Konto von 2 Adresse\(n\) innerhalb von 15 Minuten\. /,
      ),
    });
    expect(messageText(failures, i18n.getFixedT('en'), 'en').subject).toBe('Failed sign-ins to your account');
  });

  it('shows a rule’s own system message as the rule worded it', () => {
    const own: Message = { ...base, kind: null, params: null };
    expect(messageText(own, i18n.getFixedT('de'), 'de')).toEqual({
      subject: 'stored subject',
      body: 'stored body',
    });
  });
});
