/**
 * The demo's alarm walkthrough: a cold room in the demo client whose rule, at 8 °C or more, raises an
 * alarm, mails alerts@demo.test, writes a system message, texts the on-call phone and switches on the
 * backup cooling (relay 1 of the cold room's cooling controller, by downlink). Its generated values (seeded
 * history and the simulator, which both read this kind's generator) stay between 2 and 6 °C, so the alarm
 * comes only when someone pushes a warmer reading (e.g. `{"temperature": 9}` to the device's HTTP uplink).
 */
import type { Queryable } from '@iot/db';
import type { DemoDeviceKind, Reading } from './demo-fleet.js';
import { round } from './random.js';

export const COLD_ROOM_NAME = 'Demo Cold Room';
export const COLD_ROOM_RULE_NAME = 'Kühlraum zu warm';
export const COLD_ROOM_ALERT_EMAIL = 'alerts@demo.test';
/**
 * The on-call phone the rule texts: a German mobile "drama number" the Bundesnetzagentur keeps free for
 * media productions (0152 28817386), so it passes the spec's phone rules, mobile prefix included, and can
 * never reach anybody.
 */
export const COLD_ROOM_ALERT_PHONE = '+4915228817386';
/** The rule's threshold: temperature `gte` this raises the alarm. */
export const COLD_ROOM_LIMIT = 8;
export const COLD_ROOM_COOLING_NAME = 'Demo Cold Room Cooling';
/** The relay output of the cooling controller that drives the backup compressor. */
export const COLD_ROOM_COOLING_RELAY = 1;
/** The downlink the rule sends to the cooling controller: backup compressor on. */
export const COLD_ROOM_COOLING_COMMAND = {
  command: 'switch_relay_output',
  params: { output: COLD_ROOM_COOLING_RELAY, on: true },
} as const;

export const COLD_ROOM_KIND: DemoDeviceKind = {
  kind: 'cold_room',
  deviceType: null,
  names: [COLD_ROOM_NAME],
  intervalMinutes: 15,
  icon: 'temperature',
  // 2..6 °C: a compressor cycle of about two hours plus a little noise, never reaching the limit.
  reading: (h, rnd) => ({
    temperature: round(4 + 1.6 * Math.sin((h / 2) * 2 * Math.PI) + (rnd() - 0.5) * 0.6, 1),
    humidity: round(85 + rnd() * 5, 1),
  }),
};

/**
 * The cold room's cooling controller: an I/O board of the srd_gateway type (two relays, whose driver
 * encodes the spec's relay commands) wired to the backup compressor, connected over MQTT rather than
 * LoRaWAN so that downlinks reach it on devices/<uuid>/down. The backup stays off while the cold room is
 * fine; relay 2 is unused.
 */
/**
 * The board's answer to its relay commands, in the command frame every built-in driver encodes
 * (packages/codecs README "Downlink commands"): `01 04 <relay> <0|1>` switches a relay, `01 05 <relay>
 * <seconds, 4 bytes>` switches it on for a while (the simulation keeps it on). Anything else is ignored.
 */
export function applyCoolingDownlink(bytes: Uint8Array): Reading | undefined {
  const [version, command, relay, argument] = bytes;
  if (version !== 0x01 || (relay !== 1 && relay !== 2)) return undefined;
  if (command === 0x04 && bytes.length === 4 && (argument === 0 || argument === 1))
    return { [`relay_output_${relay}`]: argument === 1 };
  if (command === 0x05 && bytes.length === 7) return { [`relay_output_${relay}`]: true };
  return undefined;
}

export const COLD_ROOM_COOLING_KIND: DemoDeviceKind = {
  kind: 'cooling_controller',
  deviceType: 'srd_gateway',
  mqtt: true,
  json: true,
  applyDownlink: applyCoolingDownlink,
  names: [COLD_ROOM_COOLING_NAME],
  intervalMinutes: 15,
  icon: 'gateway',
  reading: (_h, rnd) => ({
    relay_output_1: false,
    relay_output_2: false,
    signal_strength: 4 + Math.round(rnd()),
    rssi: -60 - Math.round(rnd() * 15),
  }),
};

/**
 * The cold room's rule with its actions, in the order they go out: email, system message, SMS, downlink
 * (the cold room sends plain JSON; the cooling controller is switched with its driver's relay command).
 */
export async function seedColdRoom(
  tx: Queryable,
  companyId: number,
  devices: { coldRoomId: number; coolingId: number },
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
     VALUES ($1, $2, $3, 'data', 'temperature', 'gte', $4) RETURNING id`,
    [companyId, devices.coldRoomId, COLD_ROOM_RULE_NAME, COLD_ROOM_LIMIT],
  );
  const ruleId = rows[0]?.id;
  if (ruleId === undefined) throw new Error('cold room rule not written');
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, subject, body)
     VALUES ($1, $2, 0, 'email', $3, $4, $5)`,
    [
      companyId,
      ruleId,
      [COLD_ROOM_ALERT_EMAIL],
      'Alarm: {device} bei {value} {unit}',
      '{device} meldet {field} {value} {unit} um {time} (Regel {rule}, Grenze 8 °C). Bitte den Kühlraum prüfen.',
    ],
  );
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, subject, body)
     VALUES ($1, $2, 1, 'system', $3, $4)`,
    [companyId, ruleId, '{device}: {field} {value} {unit}', 'Regel {rule} hat um {time} ausgelöst.'],
  );
  // One SMS is 160 characters: the body stays well within it with the longest device name and time.
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, body)
     VALUES ($1, $2, 2, 'sms', $3, $4)`,
    [
      companyId,
      ruleId,
      [COLD_ROOM_ALERT_PHONE],
      'Alarm {device}: {field} {value} {unit} um {time}. Die Reservekühlung wird eingeschaltet.',
    ],
  );
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, target_device_id, command, command_params)
     VALUES ($1, $2, 3, 'remote_control', $3, $4, $5::jsonb)`,
    [
      companyId,
      ruleId,
      devices.coolingId,
      COLD_ROOM_COOLING_COMMAND.command,
      JSON.stringify(COLD_ROOM_COOLING_COMMAND.params),
    ],
  );
  return ruleId;
}
