/**
 * Parking (issue #25): the rules worker keeps each car park's free slots current from the uplinks it
 * evaluates anyway, and its timer turns silent bays unknown and raises overstay alarms.
 *
 * Why here and not in the storage writer: the writer's batch is the platform's hottest transaction, tuned
 * statement by statement (device-data-writes.ts), and its app may import only the uplink contracts; the
 * rules worker already owns alarms (the overstay is one) and a timer (an overstay and an 8-hour silence
 * happen without any uplink), and it reads the uplink data in the same log order. Uplinks without a
 * parking field (`occupied`, a vehicle count, free spaces) cost one object lookup and no statement.
 */
import { applyParkingReadings, type ParkingUplink, type Queryable, refreshParkingOnTimer } from '@iot/db';
import { parkingReadingOf } from '@iot/domain';
import type { PositionedUplink } from './uplink-record.js';

export function parkingUplinksOf(uplinks: readonly PositionedUplink[]): ParkingUplink[] {
  const out: ParkingUplink[] = [];
  for (const { uplink } of uplinks) {
    const reading = parkingReadingOf(uplink.data as Record<string, unknown>);
    if (reading)
      out.push({ deviceId: uplink.deviceId, companyId: uplink.companyId, at: uplink.measuredAt, reading });
  }
  return out;
}

/** The batch's parking readings, in the batch's transaction. */
export async function applyParkingUplinks(
  tx: Queryable,
  uplinks: readonly ParkingUplink[],
  now: number,
): Promise<void> {
  if (uplinks.length > 0) await applyParkingReadings(tx, uplinks, now);
}

/** The timer tick's share, in the tick's transaction. */
export function refreshParking(tx: Queryable, now: number) {
  return refreshParkingOnTimer(tx, now);
}
