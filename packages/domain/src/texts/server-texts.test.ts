import { describe, expect, it } from 'vitest';
import { INTERFACE_LANGUAGES } from '../constants/session';
import { SERVER_TEXTS, type ServerTextKind, wordServerText } from './server-texts';

/** Parameters of each kind as its writer stores them; a kind added without a sample fails to compile. */
const SAMPLES: Record<ServerTextKind, Record<string, unknown>> = {
  alarm_raise: { rule: 'Frost', field: 'temperature', reason: 'temperature lte 0 (value -1.5)' },
  alarm_clear: { check: 'battery_low', check_id: 4, reason: 'value_ok' },
  rule_fired: { rule: 'Frost', field: 'temperature', reason: 'temperature lte 0 (value -1.5)', actions: 2 },
  rule_suppressed: { rule: 'Frost', reason: 'schedule' },
  uplink_late: {
    measured_at: '2026-11-20T10:00:00Z',
    last_at: '2026-11-20T11:00:00Z',
    evaluated_at: '2026-11-20T11:00:00Z',
  },
  decode_failed: { errors: 'unknown fPort 9' },
  decoder_warnings: { warnings: 'extra field x' },
  parking_alarm: { parking: 'parking_free_slots', area: 'P1', free_slots: 0, actions: 1 },
  lns_joined: { dev_addr: '26011BDA' },
  lns_downlink_acknowledged: { port: 2, server: 'The Things Stack' },
  lns_downlink_not_acknowledged: { port: null, requeued: true, server: 'The Things Stack' },
  lns_downlink_failed: { port: 2, error: 'no gateway', server: 'The Things Stack' },
  lns_downlink_sent: { gateway: 'gw-1' },
  lns_downlink_queued: { port: 2, server: 'The Things Stack' },
  lns_log: { server: 'ChirpStack', code: 'UPLINK_F_CNT_RESET', description: '' },
  alarm: { check: 'no_data', check_id: 2, reason: 'no_data', field: null },
  parking_alarm_text: { parking: 'parking_overstay', area: 'P1 B-3', minutes: 30 },
  codec_suspended_log: { codec: 'Dragino', error: 'time budget' },
  downlink_failed: { device: 'Valve 3', command: 'reboot', sent_at: '2026-11-20T10:00:00Z', error: 'nack' },
  action_failed: { rule: 'Frost', channel: 'email', recipient: 'a@b.de', device: 'T1', error: '550' },
  login_failures: { failures: 12, addresses: 3, minutes: 15 },
  codec_suspended: { codec: 'Dragino', device: 'T1' },
  support_access_requested: { requester: 'Sam' },
  water_year_80: { member: 'Hof A', value: 81.5 },
  water_year_100: { member: 'Hof A', value: 100, valves_closed: true },
  water_hour_cap: { member: 'Hof A', value: 12.25 },
  rule_alarm: { rule: 'Frost', device: 'T1', field: 'soil_humidity', value: 12, unit: '%', time: '07:00' },
  password_reset_mail: { name: 'Ada', minutes: 60, link: 'https://x/r/t' },
  initial_admin_mail: { expires_at: '2026-11-30T10:00:00.000Z', link: 'https://x/r/t' },
  invitation_mail: { name: 'Ada', company: 'Hof', days: 7, link: 'https://x/r/t' },
  support_request_mail: {
    id: 4,
    subject: 'Sensor offline',
    message: 'Since Monday.',
    name: 'Ada',
    email: 'ada@hof.test',
    user_id: 9,
    company: 'Hof',
    company_id: 2,
    impersonated: false,
    phone: '+49 761 1234',
  },
};

describe('server texts', () => {
  const kinds = Object.keys(SERVER_TEXTS) as ServerTextKind[];

  it.each(kinds)('words %s in every interface language, differently per language', (kind) => {
    const worded = INTERFACE_LANGUAGES.map((language) => {
      expect(typeof SERVER_TEXTS[kind][language], `${kind} lacks ${language}`).toBe('function');
      const text = wordServerText(kind, SAMPLES[kind], language);
      expect(text?.text.trim()).not.toBe('');
      expect(`${text?.subject ?? ''} ${text?.text}`).not.toMatch(/undefined|\{\{|NaN|\[object/);
      return `${text?.subject ?? ''}|${text?.text}`;
    });
    expect(new Set(worded).size, `${kind} reads the same in every language`).toBe(INTERFACE_LANGUAGES.length);
  });

  it('names data fields by their label in the reader language, a virtual field by its name', () => {
    const p = { rule: 'Dry', field: 'soil_humidity', reason: 'soil_humidity lte 20 (value 12)' };
    expect(wordServerText('alarm_raise', p, 'de')?.text).toBe(
      'Regel „Dry“: Alarm ausgelöst (Bodenfeuchte (%) ≤ 20 (Wert 12))',
    );
    expect(wordServerText('alarm_raise', p, 'en')?.text).toBe(
      'Rule "Dry": alarm raised (Soil moisture (%) ≤ 20 (value 12))',
    );
    const virtual = {
      rule: 'R',
      device: 'V',
      field: 'virtual.2b4c1e9a-0000-4000-8000-000000000000.Mittel',
      value: 3,
      unit: '',
      time: 't',
    };
    expect(wordServerText('rule_alarm', virtual, 'en')?.text).toContain('V: Mittel = 3');
  });

  it('words the rules engine reasons: codes, conditions, silence', () => {
    const silent = { rule: 'Still', reason: 'no data for 3700 s (limit 3600 s)' };
    expect(wordServerText('alarm', silent, 'de')?.text).toBe(
      'Regel „Still“: keine Daten seit 3700 s (Grenze 3600 s)',
    );
    expect(wordServerText('alarm', silent, 'en')?.text).toBe(
      'Rule "Still": no data for 3700 s (limit 3600 s)',
    );
    const check = { check: 'battery_low', check_id: 3, reason: 'battery_low', field: 'battery_level' };
    expect(wordServerText('alarm_raise', check, 'de')?.text).toBe(
      'Sensorprüfung Batterie schwach #3: Alarm ausgelöst (Batterie schwach)',
    );
    const rising = { rule: 'Flut', field: 'water_level_cm', reason: 'water_level_cm rie 120 (value 121)' };
    expect(wordServerText('rule_fired', { ...rising, actions: 1 }, 'en')?.text).toBe(
      'Rule "Flut" fired: Water level (cm) reached rising 120 (value 121); 1 action(s) queued',
    );
  });

  it('leaves an unknown kind to the stored text', () => {
    expect(wordServerText('some_future_kind', {}, 'de')).toBeUndefined();
    expect(wordServerText(null, null, 'en')).toBeUndefined();
  });
});

describe('parking alarm notifications', () => {
  it('takes the half of the stored two-language text in the reader language', async () => {
    const { bilingualHalf, parkingAlarmLabel } = await import('./parking-alarm');
    const text = 'Car park full: A / B / Parkplatz voll: A / B';
    expect(bilingualHalf(text, 'en')).toBe('Car park full: A / B');
    expect(bilingualHalf(text, 'de')).toBe('Parkplatz voll: A / B');
    expect(bilingualHalf('only one language', 'de')).toBe('only one language');
    expect(parkingAlarmLabel('parking_overstay', 'de')).toBe('Parkdauer überschritten');
  });
});
