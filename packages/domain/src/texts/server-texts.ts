/**
 * Every text the platform itself writes for people (device log entries, system messages, its own mails,
 * SMS and calls) as a kind with parameters, worded here in German and English. Writers store the kind and
 * its parameters (device_logs.kind/params, migration 0040; messages.kind/params, migration 0023) and the
 * reader's language is chosen when the text is read or sent: the user's locale in the API, the recipient
 * user's locale for a mail, the company's language for an address that is no user. A rule's own
 * subject and body are the rule author's words and are not kinds.
 *
 * The type makes a kind without German or English a compile error; server-texts.test.ts words every kind
 * in every interface language.
 */
import type { InterfaceLanguage } from '../constants/session';
import { parseDownlinkFailure } from '../downlinks/downlink-failure';
import { field, num, pick, str, type TextParams, time, type WordedText } from './word';

type Wording = (p: TextParams, language: InterfaceLanguage) => WordedText;
type Kind = Readonly<Record<InterfaceLanguage, Wording>>;

const ruleName = (p: TextParams, l: InterfaceLanguage) =>
  pick(l, `Regel „${str(p, 'rule')}“`, `Rule "${str(p, 'rule')}"`);

/** Who raised or cleared an alarm: a rule by name, else a sensor check by kind and id. */
function alarmSource(p: TextParams, l: InterfaceLanguage): string {
  if (p.rule !== undefined && p.rule !== null) return ruleName(p, l);
  const check = SENSOR_CHECKS[str(p, 'check')]?.[l] ?? str(p, 'check');
  return pick(
    l,
    `Sensorprüfung ${check} #${str(p, 'check_id')}`,
    `Sensor check ${check} #${str(p, 'check_id')}`,
  );
}

const SENSOR_CHECKS: Record<string, Record<InterfaceLanguage, string>> = {
  no_data: { de: 'keine Daten', en: 'no data' },
  implausible_value: { de: 'unplausibler Wert', en: 'implausible value' },
  battery_low: { de: 'Batterie schwach', en: 'battery low' },
};

const REASONS: Record<string, Record<InterfaceLanguage, string>> = {
  condition_ended: { de: 'Bedingung nicht mehr erfüllt', en: 'condition no longer holds' },
  data_received: { de: 'wieder Daten empfangen', en: 'data received again' },
  value_ok: { de: 'Wert wieder plausibel', en: 'value back in range' },
  no_data: { de: 'keine Daten', en: 'no data' },
  implausible_value: { de: 'unplausibler Wert', en: 'implausible value' },
  battery_low: { de: 'Batterie schwach', en: 'battery low' },
};

const OPERATORS: Record<string, Record<InterfaceLanguage, string>> = {
  lte: { de: '≤', en: '≤' },
  gte: { de: '≥', en: '≥' },
  eq: { de: '=', en: '=' },
  in: { de: 'in', en: 'in' },
  out: { de: 'außerhalb', en: 'outside' },
  rie: { de: 'steigend erreicht', en: 'reached rising' },
  fae: { de: 'fallend erreicht', en: 'reached falling' },
};

/**
 * An alarm's or firing's reason: a code the rules engine gives (`no_data`) in words, a condition as the
 * engine describes it (`temperature gte 30 (value 31)`) with the field's label and the operator's sign;
 * anything else as written.
 */
function reason(p: TextParams, l: InterfaceLanguage): string {
  const given = str(p, 'reason');
  const known = REASONS[given];
  if (known) return known[l];
  const silent = given.match(/^no data for (\d+) s \(limit (\d+) s\)$/);
  if (silent) return pick(l, `keine Daten seit ${silent[1]} s (Grenze ${silent[2]} s)`, given);
  const key = typeof p.field === 'string' ? p.field : '';
  const condition = key === '' ? null : given.slice(key.length).match(/^ (\w+) (\S+) \(value (.+)\)$/);
  if (!given.startsWith(`${key} `) || !condition) return given;
  const [, operator = '', target = '', value = ''] = condition;
  const sign = OPERATORS[operator]?.[l] ?? operator;
  return `${field(p, 'field', l)} ${sign} ${target} (${pick(l, 'Wert', 'value')} ${value})`;
}

const SUPPRESSIONS: Record<string, Record<InterfaceLanguage, string>> = {
  schedule: { de: 'außerhalb ihres Zeitplans', en: 'outside its schedule' },
  max_actions: { de: 'maximale Aktionen erreicht', en: 'max actions reached' },
  max_clicks: { de: 'Klick gezählt, weitere nötig', en: 'click counted, more clicks needed' },
  click_type: { de: 'Klickart passt nicht', en: 'click type does not match' },
  time_window: {
    de: 'Bedingung erfüllt, wartet auf ihr Zeitfenster',
    en: 'condition holds, waiting for its time window',
  },
  not_edge: {
    de: 'keine neue Episode (schon ausgelöst, solange die Bedingung gilt)',
    en: 'no new episode (already fired while the condition holds)',
  },
};

const CHANNELS: Record<string, Record<InterfaceLanguage, string>> = {
  email: { de: 'E-Mail', en: 'Email' },
  sms: { de: 'SMS', en: 'SMS' },
  voice_message: { de: 'Anruf', en: 'Voice call' },
  system: { de: 'Systemnachricht', en: 'System message' },
  http: { de: 'HTTP-Aufruf', en: 'HTTP request' },
  remote_control: { de: 'Fernsteuerung', en: 'Remote control' },
  farming_task: { de: 'Feldaufgabe', en: 'Farming task' },
};

const COMMANDS: Record<string, Record<InterfaceLanguage, string>> = {
  reset_counter: { de: 'Zähler zurücksetzen', en: 'Reset counter' },
  switch_digital_output: { de: 'Digitalausgang schalten', en: 'Switch digital output' },
  switch_digital_output_timed: {
    de: 'Digitalausgang zeitgesteuert schalten',
    en: 'Switch digital output for a time',
  },
  switch_relay_output: { de: 'Relaisausgang schalten', en: 'Switch relay output' },
  switch_relay_output_timed: {
    de: 'Relaisausgang zeitgesteuert schalten',
    en: 'Switch relay output for a time',
  },
  switch_solenoid_valve: { de: 'Magnetventil schalten', en: 'Switch solenoid valve' },
  reboot: { de: 'Gerät neu starten', en: 'Reboot device' },
  request_uplink: { de: 'Neue Daten anfordern', en: 'Request new uplink data' },
  set_reporting_interval: { de: 'Sendeintervall setzen', en: 'Set reporting interval' },
};

const named = (
  table: Record<string, Record<InterfaceLanguage, string>>,
  p: TextParams,
  key: string,
  l: InterfaceLanguage,
) => table[str(p, key)]?.[l] ?? str(p, key);

/** A rule's alarm in the platform's words: the default of a mail, SMS, call or system message left blank. */
const alarmLine = (p: TextParams, l: InterfaceLanguage) =>
  p.field === null || p.field === undefined || p.field === ''
    ? pick(
        l,
        `${str(p, 'device')}: Regel ausgelöst um ${str(p, 'time')}`,
        `${str(p, 'device')}: rule fired at ${str(p, 'time')}`,
      )
    : pick(
        l,
        `${str(p, 'device')}: ${field(p, 'field', l, false)} = ${num(p, 'value', l)} ${str(p, 'unit') === '–' ? '' : str(p, 'unit')} um ${str(p, 'time')}`,
        `${str(p, 'device')}: ${field(p, 'field', l, false)} = ${num(p, 'value', l)} ${str(p, 'unit') === '–' ? '' : str(p, 'unit')} at ${str(p, 'time')}`,
      ).replace('  ', ' ');

const WATER_SUBJECTS = {
  year_80: { de: 'Wasserkontingent zu 80 % erreicht', en: 'Water allowance 80 % reached' },
  year_100: { de: 'Wasserkontingent aufgebraucht', en: 'Water allowance used up' },
  hour_cap: { de: 'Stündliche Entnahmegrenze überschritten', en: 'Hourly water cap exceeded' },
} as const;

function waterLine(kind: keyof typeof WATER_SUBJECTS, p: TextParams, l: InterfaceLanguage): string {
  const m = str(p, 'member');
  const v = num(p, 'value', l);
  if (kind === 'hour_cap')
    return pick(
      l,
      `${m} hat in einer Stunde ${v} m³ entnommen, mehr als seine Stundengrenze.`,
      `${m} drew ${v} m³ in one hour, more than its hourly cap.`,
    );
  const valves =
    p.valves_closed === true
      ? pick(l, ' Die Ventile des Mitglieds werden geschlossen.', " The member's valves are being closed.")
      : '';
  return (
    pick(
      l,
      `${m} hat ${v} % seines Jahreskontingents verbraucht.`,
      `${m} has used ${v} % of its yearly water allowance.`,
    ) + valves
  );
}

const water = (kind: keyof typeof WATER_SUBJECTS): Kind => ({
  de: (p) => ({ subject: `${WATER_SUBJECTS[kind].de}: ${str(p, 'member')}`, text: waterLine(kind, p, 'de') }),
  en: (p) => ({ subject: `${WATER_SUBJECTS[kind].en}: ${str(p, 'member')}`, text: waterLine(kind, p, 'en') }),
});

const both = (wording: Wording): Kind => ({ de: (p) => wording(p, 'de'), en: (p) => wording(p, 'en') });

export const SERVER_TEXTS = {
  // Device log entries (device_logs.kind).
  alarm_raise: both((p, l) => ({
    text: `${alarmSource(p, l)}: ${pick(l, 'Alarm ausgelöst', 'alarm raised')} (${reason(p, l)})`,
  })),
  alarm_clear: both((p, l) => ({
    text: `${alarmSource(p, l)}: ${pick(l, 'Alarm beendet', 'alarm cleared')} (${reason(p, l)})`,
  })),
  rule_fired: {
    de: (p) => ({
      text: `${ruleName(p, 'de')} ausgelöst: ${reason(p, 'de')}; ${str(p, 'actions')} Aktion(en) eingeplant`,
    }),
    en: (p) => ({
      text: `${ruleName(p, 'en')} fired: ${reason(p, 'en')}; ${str(p, 'actions')} action(s) queued`,
    }),
  },
  rule_suppressed: {
    de: (p) => ({
      text: `${ruleName(p, 'de')} hat nicht benachrichtigt: ${named(SUPPRESSIONS, p, 'reason', 'de')}`,
    }),
    en: (p) => ({ text: `${ruleName(p, 'en')} did not notify: ${named(SUPPRESSIONS, p, 'reason', 'en')}` }),
  },
  uplink_late: {
    de: (p) => ({
      text: `Uplink von ${time(p, 'measured_at', 'de')} ist älter als der zuletzt ausgewertete (${time(p, 'last_at', 'de')}): ausgewertet zum ${time(p, 'evaluated_at', 'de')} (späte Zustellung oder Geräteuhr geht nach)`,
    }),
    en: (p) => ({
      text: `Uplink measured at ${time(p, 'measured_at', 'en')} is older than the last one its rules evaluated (${time(p, 'last_at', 'en')}): evaluated as of ${time(p, 'evaluated_at', 'en')} (late delivery, or the device clock is behind)`,
    }),
  },
  decode_failed: {
    de: (p) => ({ text: `Uplink konnte nicht dekodiert werden: ${str(p, 'errors')}` }),
    en: (p) => ({ text: `uplink could not be decoded: ${str(p, 'errors')}` }),
  },
  decoder_warnings: {
    de: (p) => ({ text: `Warnungen des Decoders: ${str(p, 'warnings')}` }),
    en: (p) => ({ text: `decoder warnings: ${str(p, 'warnings')}` }),
  },
  parking_alarm: {
    de: (p) => ({ text: `${parkingLine(p, 'de')}; ${str(p, 'actions')} Aktion(en) eingeplant` }),
    en: (p) => ({ text: `${parkingLine(p, 'en')}; ${str(p, 'actions')} action(s) queued` }),
  },
  lns_joined: both((p, l) => ({
    text: pick(
      l,
      `Dem Netz beigetreten (DevAddr ${str(p, 'dev_addr')})`,
      `joined the network (DevAddr ${str(p, 'dev_addr')})`,
    ),
  })),
  lns_downlink_acknowledged: both((p, l) => ({
    text: pick(
      l,
      `${downlinkName(p, l)} vom Gerät bestätigt`,
      `${downlinkName(p, l)} acknowledged by the device`,
    ),
  })),
  lns_downlink_not_acknowledged: both((p, l) => ({
    text:
      pick(
        l,
        `${downlinkName(p, l)} vom Gerät nicht bestätigt`,
        `${downlinkName(p, l)} not acknowledged by the device`,
      ) +
      (p.requeued === true
        ? pick(l, `; ${str(p, 'server')} reiht ihn erneut ein`, `; ${str(p, 'server')} queues it again`)
        : ''),
  })),
  lns_downlink_failed: both((p, l) => ({
    text: pick(
      l,
      `${downlinkName(p, l)} fehlgeschlagen: ${str(p, 'error')}`,
      `${downlinkName(p, l)} failed: ${str(p, 'error')}`,
    ),
  })),
  lns_downlink_sent: both((p, l) => ({
    text:
      p.gateway !== undefined
        ? pick(
            l,
            `Downlink von Gateway ${str(p, 'gateway')} gesendet`,
            `downlink sent by gateway ${str(p, 'gateway')}`,
          )
        : pick(l, `${downlinkName(p, l)} an ein Gateway gesendet`, `${downlinkName(p, l)} sent to a gateway`),
  })),
  lns_downlink_queued: both((p, l) => ({
    text: pick(
      l,
      `${downlinkName(p, l)} bei ${str(p, 'server')} eingereiht`,
      `${downlinkName(p, l)} queued at ${str(p, 'server')}`,
    ),
  })),
  lns_log: both((p, l) => ({
    text: `${str(p, 'server')} ${str(p, 'code')}: ${p.description === '' ? pick(l, '(ohne Beschreibung)', '(no description)') : str(p, 'description')}`,
  })),
  /** An alarm's text in the alarm list (alarms.message): what raised it and why. */
  alarm: both((p, l) => ({ text: `${alarmSource(p, l)}: ${reason(p, l)}` })),
  /** A parking alarm's text in the alarm list (details of migration 0030's alarms). */
  parking_alarm_text: both((p, l) => ({ text: parkingLine(p, l) })),
  codec_suspended_log: {
    de: (p) => ({ text: `Codec ${str(p, 'codec')} ausgesetzt (90100): ${str(p, 'error')}` }),
    en: (p) => ({ text: `codec ${str(p, 'codec')} suspended (90100): ${str(p, 'error')}` }),
  },

  // System messages (messages.kind).
  downlink_failed: both((p, l) => ({
    subject: pick(
      l,
      `Befehl nicht zugestellt: ${str(p, 'device')}`,
      `Command not delivered: ${str(p, 'device')}`,
    ),
    text: pick(
      l,
      `„${named(COMMANDS, p, 'command', l)}“${p.by_rule === true ? ' einer Regel' : ''}, gesendet ${time(p, 'sent_at', l)}, hat das Gerät nicht erreicht: ${downlinkError(p, l)}.`,
      `"${named(COMMANDS, p, 'command', l)}"${p.by_rule === true ? ' of a rule' : ''}, sent ${time(p, 'sent_at', l)}, did not reach the device: ${downlinkError(p, l)}.`,
    ),
  })),
  action_failed: both((p, l) => ({
    subject: pick(
      l,
      `Aktion nicht ausgeführt: ${str(p, 'rule')}`,
      `Action not carried out: ${str(p, 'rule')}`,
    ),
    text:
      p.channel === 'remote_control'
        ? pick(
            l,
            `Der Befehl „${named(COMMANDS, p, 'command', l)}“ der Regel an ${str(p, 'recipient')} (auf eine Meldung von ${str(p, 'device')}) konnte nicht gesendet werden: ${downlinkError(p, l)}.`,
            `The rule's command "${named(COMMANDS, p, 'command', l)}" to ${str(p, 'recipient')} (on an uplink of ${str(p, 'device')}) could not be sent: ${downlinkError(p, l)}.`,
          )
        : pick(
            l,
            `${named(CHANNELS, p, 'channel', l)} an ${str(p, 'recipient')} (Gerät ${str(p, 'device')}) ist fehlgeschlagen: ${str(p, 'error')}.`,
            `${named(CHANNELS, p, 'channel', l)} to ${str(p, 'recipient')} (device ${str(p, 'device')}) failed: ${str(p, 'error')}.`,
          ),
  })),
  login_failures: both((p, l) => ({
    subject: pick(l, 'Fehlgeschlagene Anmeldungen bei Ihrem Konto', 'Failed sign-ins to your account'),
    text: pick(
      l,
      `${str(p, 'failures')} fehlgeschlagene Anmeldungen von ${str(p, 'addresses')} Adresse(n) innerhalb von ${str(p, 'minutes')} Minuten. Ihr Passwort hat standgehalten; falls Sie das nicht waren, ändern Sie es.`,
      `${str(p, 'failures')} failed sign-ins from ${str(p, 'addresses')} address(es) within ${str(p, 'minutes')} minutes. Your password held; if this was not you, consider changing it.`,
    ),
  })),
  codec_suspended: both((p, l) => ({
    subject: pick(l, `Codec ausgesetzt: ${str(p, 'codec')}`, `Codec suspended: ${str(p, 'codec')}`),
    text: pick(
      l,
      `Der Codec „${str(p, 'codec')}“ hat sein Zeitbudget wiederholt überschritten (zuletzt bei ${str(p, 'device')}) und ist ausgesetzt.`,
      `The codec "${str(p, 'codec')}" ran past its time budget again and again (last with ${str(p, 'device')}) and is suspended.`,
    ),
  })),
  support_access_requested: both((p, l) => ({
    subject: pick(
      l,
      'Der Support bittet um Zugriff auf Ihr Konto',
      'Support asks for access to your account',
    ),
    text: pick(
      l,
      `${str(p, 'requester')} vom Plattform-Support bittet darum, als Ihr Unternehmen handeln zu dürfen. Ein Hauptbenutzer kann den Zugriff unter Einstellungen befristet freigeben.`,
      `${str(p, 'requester')} of the platform support asks to act as your company. A main user can grant access for a limited time in Settings.`,
    ),
  })),
  water_year_80: water('year_80'),
  water_year_100: water('year_100'),
  water_hour_cap: water('hour_cap'),
  /** A rule's system message, email, SMS or call whose subject or text the rule left blank. */
  rule_alarm: both((p, l) => ({
    subject: `${str(p, 'rule')}: ${str(p, 'device')}`,
    text: alarmLine(p, l),
  })),

  // The platform's own mails.
  password_reset_mail: both((p, l) => ({
    subject: pick(l, 'Passwort zurücksetzen', 'Reset your password'),
    text: pick(
      l,
      `Hallo ${str(p, 'name')},\n\nmit diesem Link setzen Sie Ihr Passwort zurück (gültig ${str(p, 'minutes')} Minuten, einmal verwendbar):\n${str(p, 'link')}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.`,
      `Hello ${str(p, 'name')},\n\nuse this link to reset your password (valid for ${str(p, 'minutes')} minutes, usable once):\n${str(p, 'link')}\n\nIf you did not ask for this, ignore this email.`,
    ),
  })),
  /** The first super admin's mail (INITIAL_ADMIN_EMAIL): sent before anyone chose a language. */
  initial_admin_mail: both((p, l) => ({
    subject: pick(l, 'IoT-Plattform: Ihr Administratorzugang', 'IoT platform: your administrator account'),
    text: pick(
      l,
      `Legen Sie Ihr Passwort fest (der Link gilt einmal, bis ${str(p, 'expires_at')}):\n${str(p, 'link')}`,
      `Choose your password (the link works once, until ${str(p, 'expires_at')}):\n${str(p, 'link')}`,
    ),
  })),
  invitation_mail: both((p, l) => ({
    subject: pick(l, `Einladung: ${str(p, 'company')}`, `Invitation: ${str(p, 'company')}`),
    text: pick(
      l,
      `Hallo ${str(p, 'name')},\n\nfür ${str(p, 'company')} wurde ein Zugang zur IoT-Plattform eingerichtet. Mit diesem Link legen Sie Ihr Passwort fest (gültig ${str(p, 'days')} Tage, einmal verwendbar):\n${str(p, 'link')}\n\nIhre Anmeldung ist diese E-Mail-Adresse.`,
      `Hello ${str(p, 'name')},\n\nan account on the IoT platform was set up for ${str(p, 'company')}. Use this link to choose your password (valid for ${str(p, 'days')} days, usable once):\n${str(p, 'link')}\n\nYou sign in with this email address.`,
    ),
  })),
  /** A support request as mailed to the platform's support address (SUPPORT_EMAIL). */
  support_request_mail: both((p, l) => ({
    subject: `[Support #${str(p, 'id')}] ${str(p, 'subject')}`,
    text: [
      `${pick(l, 'Von', 'From')}: ${str(p, 'name')} <${str(p, 'email')}> (${pick(l, 'Benutzer', 'user')} ${str(p, 'user_id')})`,
      `${pick(l, 'Unternehmen', 'Company')}: ${str(p, 'company')} (id ${str(p, 'company_id')})${
        p.impersonated === true ? pick(l, ', im Namen des Kunden', ', impersonated') : ''
      }`,
      ...(typeof p.phone === 'string' && p.phone !== ''
        ? [`${pick(l, 'Telefon', 'Phone')}: ${p.phone}`]
        : []),
      '',
      str(p, 'message'),
    ].join('\n'),
  })),
} as const satisfies Record<string, Kind>;

/** A command's failure: the platform's own reasons in words, a network server's or transport's as given. */
function downlinkError(p: TextParams, l: InterfaceLanguage): string {
  if (typeof p.error !== 'string') return pick(l, 'fehlgeschlagen', 'failed');
  const failure = parseDownlinkFailure(p.error);
  switch (failure.reason) {
    case 'not_acknowledged':
      return pick(l, 'vom Gerät nicht bestätigt (ChirpStack)', 'not acknowledged by the device (ChirpStack)');
    case 'no_report':
      return pick(
        l,
        `keine Meldung des Netzservers binnen ${num({ h: failure.hours }, 'h', l)} h`,
        `no report from the network server within ${num({ h: failure.hours }, 'h', l)} h`,
      );
    case 'network_server':
      return `The Things Stack: ${failure.detail}`;
    default:
      return failure.detail;
  }
}

/** A downlink, with its port where the network server named it. */
const downlinkName = (p: TextParams, l: InterfaceLanguage) =>
  typeof p.port === 'number'
    ? pick(l, `Downlink auf Port ${p.port}`, `downlink on port ${p.port}`)
    : 'Downlink';

/** A parking alarm's line (overstay, few free slots or full, implausible count). */
function parkingLine(p: TextParams, l: InterfaceLanguage): string {
  const area = str(p, 'area');
  switch (p.parking) {
    case 'parking_overstay':
      return pick(
        l,
        `Parkdauer überschritten: ${area}, länger als ${str(p, 'minutes')} Min.`,
        `Overstay: ${area}, longer than ${str(p, 'minutes')} min`,
      );
    case 'parking_free_slots':
      return p.free_slots === 0
        ? pick(l, `Parkplatz voll: ${area}`, `Car park full: ${area}`)
        : pick(
            l,
            `Wenige freie Plätze: ${area} (${str(p, 'free_slots')})`,
            `Few free slots: ${area} (${str(p, 'free_slots')})`,
          );
    case 'parking_count_warning':
      return pick(
        l,
        `Unplausible Zählung: ${area} meldet ${str(p, 'reported')} Fahrzeuge bei ${str(p, 'capacity')} Plätzen`,
        `Implausible count: ${area} reports ${str(p, 'reported')} vehicles, capacity ${str(p, 'capacity')}`,
      );
    default:
      return str(p, 'message');
  }
}

export type ServerTextKind = keyof typeof SERVER_TEXTS;

export function isServerTextKind(kind: unknown): kind is ServerTextKind {
  return typeof kind === 'string' && Object.hasOwn(SERVER_TEXTS, kind);
}

/**
 * A stored text in `language`: its kind's wording with its parameters, or undefined for a kind this
 * catalogue does not know (an old row, or a kind of a newer version): the caller shows the stored text.
 */
export function wordServerText(
  kind: string | null | undefined,
  params: unknown,
  language: InterfaceLanguage,
): WordedText | undefined {
  if (!isServerTextKind(kind)) return undefined;
  const p = typeof params === 'object' && params !== null ? (params as TextParams) : {};
  return SERVER_TEXTS[kind][language](p, language);
}
