import type { ParkingArea } from '@iot/contracts';
import type { ParkingAreaRecord, RuleActionRecord } from '@iot/db';
import { bayStatus, isReadingFresh, toNgsiLd } from '@iot/domain';
import { presentAction } from '../../../../services/list-device-rules';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The area as the console shows it; bay states are judged at `now` (a reading older than 8 h is unknown). */
export function presentParkingArea(
  a: ParkingAreaRecord & { alarmActions: RuleActionRecord[] },
  now = Date.now(),
): ParkingArea {
  const readings = a.bays.flatMap((b) => (b.readingAt ? [b.readingAt.getTime()] : []));
  return {
    id: a.id,
    uuid: a.uuid,
    name: a.name,
    description: a.description,
    type: a.type,
    capacity: a.capacity,
    area_size: a.areaSizeM2,
    max_parking_time: a.maxParkingMinutes,
    grace_period: a.graceMinutes,
    icon: a.icon,
    latitude: a.latitude,
    longitude: a.longitude,
    geometry: a.geometry,
    valid_from: a.validFrom,
    valid_to: a.validTo,
    alert_free_below: a.alertFreeBelow,
    alert_cooldown_minutes: a.alertCooldownMinutes,
    free_slots: a.freeSlots,
    occupied_slots: a.occupiedSlots,
    unknown_slots: a.unknownSlots,
    reported_count: a.reportedCount,
    count_warning: a.countWarning,
    overstays: a.bays.filter((b) => b.overstayAlarmId !== null).length,
    counts_updated_at: iso(a.countsUpdatedAt),
    last_reading_at: readings.length > 0 ? new Date(Math.max(...readings)).toISOString() : null,
    device_ids: a.bays.map((b) => b.deviceId),
    bays: a.bays.map((b) => ({
      device_id: b.deviceId,
      device_name: b.deviceName,
      label: b.label,
      status:
        a.type === 'FIX' ? bayStatus(b, now) : isReadingFresh(b.readingAt, now) ? 'reporting' : 'unknown',
      status_since: iso(b.statusSince),
      reading_at: iso(b.readingAt),
      reported_count: b.reportedCount,
      overstay: b.overstayAlarmId !== null,
    })),
    alarm_actions: a.alarmActions.map(presentAction),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The area as FIWARE NGSI-LD entities: OffStreetParking, then its bays as ParkingSpots. */
export function presentParkingAreaNgsiLd(a: ParkingAreaRecord, now = Date.now()) {
  return toNgsiLd({
    uuid: a.uuid,
    name: a.name,
    type: a.type,
    icon: a.icon,
    capacity: a.capacity,
    freeSlots: a.freeSlots,
    occupiedSlots: a.occupiedSlots,
    maxParkingMinutes: a.maxParkingMinutes,
    latitude: a.latitude,
    longitude: a.longitude,
    geometry: a.geometry,
    validFrom: a.validFrom,
    validTo: a.validTo,
    observedAt: iso(a.countsUpdatedAt),
    bays: a.bays.map((b, index) => ({
      deviceUuid: b.deviceUuid,
      label: b.label,
      status: bayStatus(b, now),
      since: iso(b.statusSince),
      index: index + 1,
    })),
  });
}
