/**
 * Writes the demo data once: the super admin company (id 1), a demo client with the farming, parking,
 * water association and map modules, a second client (to prove isolation), a water association, their
 * users, about fifty devices of every kind with three days of history, groups, a dashboard, farming fields
 * with parcels and parking areas. Everything goes in one transaction: a failed seed leaves nothing behind.
 */
import type { Db } from '@iot/db';
import { DEMO_COMPANIES } from './demo-accounts.js';
import { COLD_ROOM_COOLING_KIND, COLD_ROOM_KIND, seedColdRoom } from './demo-cold-room.js';
import { DEMO_FLEET, type DemoDeviceKind } from './demo-fleet.js';
import { seededRandom } from './random.js';
import { seedCompanies, seedUsers } from './seed-accounts.js';
import { seedCodecsAndVirtualDevice } from './seed-codecs.js';
import { seedDevices, seedHistory } from './seed-devices.js';
import { seedDashboard, seedGroups } from './seed-groups-and-dashboard.js';
import { seedFarming, seedParking } from './seed-modules.js';
import type { SeededDevice } from './seed-rows.js';
import { seedWaterAssociation } from './seed-water.js';

export interface SeedResult {
  /** false when the data was already there (the seed writes only on first start). */
  seeded: boolean;
  devices: number;
  dataPoints: number;
}

export interface SeedOptions {
  /** End of the generated history; tests pin it. */
  now?: Date;
  /** Days of history per device. */
  historyDays?: number;
}

const OTHER_FLEET_KINDS = ['temperature_humidity', 'distance', 'leak', 'button'];
const WATER_FLEET_KINDS = ['water_meter'];

function pickFleet(kinds: string[], names: (kind: DemoDeviceKind) => string[]): DemoDeviceKind[] {
  return DEMO_FLEET.filter((k) => kinds.includes(k.kind) && k.deviceType !== 'srd_button').map((k) => ({
    ...k,
    names: names(k).slice(0, 2),
  }));
}

export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const days = options.historyDays ?? 3;
  return db.transaction(async (tx) => {
    const present = await tx.query('SELECT 1 FROM companies WHERE id = $1', [DEMO_COMPANIES.superAdmin.id]);
    if (present.rows.length > 0) return { seeded: false, devices: 0, dataPoints: 0 };

    const rnd = seededRandom(20261121);
    await seedCompanies(tx);
    await seedUsers(tx);

    const fleets: Array<{ companyId: number; fleet: DemoDeviceKind[]; prefix: string }> = [
      { companyId: DEMO_COMPANIES.demo.id, fleet: DEMO_FLEET, prefix: 'DEMO' },
      {
        companyId: DEMO_COMPANIES.other.id,
        fleet: pickFleet(OTHER_FLEET_KINDS, (k) => k.names.map((n) => `${n} (Other)`)),
        prefix: 'OTHER',
      },
      {
        companyId: DEMO_COMPANIES.waterAssociation.id,
        fleet: pickFleet(WATER_FLEET_KINDS, () => ['Hochbehälter Zulauf', 'Pumpwerk Auslauf']),
        prefix: 'NWA',
      },
    ];
    let deviceCount = 0;
    let dataPoints = 0;
    let demoDevices: SeededDevice[] = [];
    for (const { companyId, fleet, prefix } of fleets) {
      const devices = await seedDevices(tx, companyId, fleet, rnd, prefix);
      for (const [i, device] of devices.entries()) {
        // Every twentieth device has gone silent, so the console shows offline and stale markers.
        dataPoints += await seedHistory(tx, companyId, device, rnd, now, days, i % 20 === 7);
      }
      await seedGroups(tx, companyId, devices);
      await seedDashboard(tx, companyId, devices);
      deviceCount += devices.length;
      if (companyId === DEMO_COMPANIES.demo.id) demoDevices = devices;
      const coldRoom = devices.find((d) => d.kind.kind === COLD_ROOM_KIND.kind);
      const cooling = devices.find((d) => d.kind.kind === COLD_ROOM_COOLING_KIND.kind);
      if (coldRoom && cooling)
        await seedColdRoom(tx, companyId, { coldRoomId: coldRoom.id, coolingId: cooling.id });
    }
    await seedFarming(tx, DEMO_COMPANIES.demo.id, demoDevices);
    await seedParking(tx, DEMO_COMPANIES.demo.id, demoDevices, now);
    const valve = demoDevices.find((d) => d.kind.kind === 'valve');
    const water = await seedWaterAssociation(tx, now, valve?.id);
    const codecs = await seedCodecsAndVirtualDevice(tx, DEMO_COMPANIES.demo.id, demoDevices, now);
    return {
      seeded: true,
      devices: deviceCount + water.devices + codecs.devices,
      dataPoints: dataPoints + water.dataPoints + codecs.dataPoints,
    };
  });
}
