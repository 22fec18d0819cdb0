/**
 * The demo's effect in the field, embedded profile: the simulated fleet's cooling controller listens on
 * its command topic, and after the cold room rule's downlink (relay 1 on) its next uplinks report
 * relay_output_1 true, so the console shows the backup cooling running.
 */

import { createLogger, type Service } from '@iot/runtime';
import { startDemoFleet } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findColdRoom, issueDeviceToken, uplinkPoster } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

let platform: TestPlatform;
let fleet: Service | undefined;

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await platform?.stop();
});

describe('the simulated cooling controller', () => {
  it('reports relay 1 on in the uplinks after the rule’s downlink', async () => {
    const { db } = platform;
    const demo = await findColdRoom(platform.db);
    // The demo client's two newest simulated devices are the well meter it shares with the water association
    // and the cooling controller; two uplinks a second each instead of one a minute.
    fleet = await startDemoFleet({
      db,
      log: createLogger({ level: 'warn', name: 'test-fleet' }),
      mqttPort: platform.mqttPort,
      devices: 2,
      perDevicePerMinute: 120,
    });
    const relayAt = (on: boolean) =>
      waitFor(`an uplink of the cooling controller with relay 1 ${on ? 'on' : 'off'}`, 45_000, async () => {
        const { rows } = await db.query<{ created_at: Date }>(
          `SELECT created_at FROM device_data WHERE device_id = $1 AND data->'relay_output_1' = $2::jsonb
             AND created_at > now() - interval '1 minute' ORDER BY created_at LIMIT 1`,
          [demo.cooling.id, JSON.stringify(on)],
        );
        return rows[0]?.created_at;
      });
    // Relay 1 is off before the alarm.
    await relayAt(false);

    const post = uplinkPoster(
      platform.ingestUrl,
      demo.coldRoom,
      await issueDeviceToken(db, demo.coldRoom.id),
    );
    expect(await post({ temperature: 9, humidity: 80, message_id: 'cooling-warm-1' })).toBe(202);
    const sent = await waitFor('the relay downlink sent', 30_000, async () => {
      const { rows } = await db.query<{ sent_at: Date }>(
        `SELECT sent_at FROM downlinks WHERE device_id = $1 AND state = 'sent'`,
        [demo.cooling.id],
      );
      return rows[0]?.sent_at;
    });
    const on = await relayAt(true);
    expect(on.getTime()).toBeGreaterThanOrEqual(sent.getTime() - 1_000);
    // The latest values the console shows: relay 1 on, relay 2 still off.
    const current = await waitFor('the current values with relay 1 on', 15_000, async () => {
      const { rows } = await db.query<{ data: Record<string, unknown> }>(
        'SELECT data FROM device_current WHERE device_id = $1',
        [demo.cooling.id],
      );
      return rows[0]?.data.relay_output_1 === true ? rows[0].data : undefined;
    });
    expect(current.relay_output_2).toBe(false);
  }, 120_000);
});
