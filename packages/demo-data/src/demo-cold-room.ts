/**
 * The demo's alarm walkthrough: a cold room in the demo client whose rule raises an alarm at 8 °C or
 * more, mails alerts@demo.test and writes a system message. Its generated values (seeded history and the
 * simulator, which both read this kind's generator) stay between 2 and 6 °C, so the alarm comes only when
 * someone pushes a warmer reading (e.g. `{"temperature": 9}` to the device's HTTP uplink).
 */
import type { Queryable } from '@iot/db';
import type { DemoDeviceKind } from './demo-fleet.js';
import { round } from './random.js';

export const COLD_ROOM_NAME = 'Demo Cold Room';
export const COLD_ROOM_RULE_NAME = 'Cold room too warm';
export const COLD_ROOM_ALERT_EMAIL = 'alerts@demo.test';
/** The rule's threshold: temperature `gte` this raises the alarm. */
export const COLD_ROOM_LIMIT = 8;

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

/** The cold room's rule with its email and system message actions (the device sends plain JSON). */
export async function seedColdRoom(tx: Queryable, companyId: number, deviceId: number): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
     VALUES ($1, $2, $3, 'data', 'temperature', 'gte', $4) RETURNING id`,
    [companyId, deviceId, COLD_ROOM_RULE_NAME, COLD_ROOM_LIMIT],
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
      'Alarm: {device} at {value} {unit}',
      '{device} reports {field} {value} {unit} at {time} (rule {rule}, limit 8 °C). Please check the cold room.',
    ],
  );
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, subject, body)
     VALUES ($1, $2, 1, 'system', $3, $4)`,
    [companyId, ruleId, '{device}: {field} {value} {unit}', 'Rule {rule} fired at {time}.'],
  );
  return ruleId;
}
