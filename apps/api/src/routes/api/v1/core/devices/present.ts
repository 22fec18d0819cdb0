import type { DownlinkVia } from '@iot/contracts';
import type { DeviceListRecord, DeviceRecord } from '@iot/db';

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function presentDeviceListItem(d: DeviceListRecord) {
  return {
    id: d.id,
    uuid: d.uuid,
    name: d.name,
    description: d.description,
    comment: d.comment,
    device_type: d.deviceType,
    driver_id: d.driverId,
    serial_number: d.serialNumber,
    dev_eui: d.devEui,
    state: d.state,
    is_active: d.isActive,
    external_accessible: d.externalAccessible,
    target_server: d.targetServer,
    battery_level: d.batteryLevel,
    battery_voltage: d.batteryVoltage,
    mains_powered: d.mainsPowered,
    last_online_at: iso(d.lastOnlineAt),
    signal_strength: d.signalStrength,
    rssi: d.rssi,
    snr: d.snr,
    group: d.group,
    group_id: d.group?.id ?? null,
    location: d.location,
    latitude: d.latitude,
    longitude: d.longitude,
    mobile_data_volume: d.mobileDataVolume,
    sensor_type: d.sensorType,
    parking_area_id: d.parkingAreaId,
    field_id: d.fieldId,
    metadata: d.metadata,
    data: d.current,
    field_times: d.fieldTimes,
    data_updated_at: iso(d.currentUpdatedAt),
    relations: { company_id: d.companyId },
  };
}

export function presentDevice(
  d: DeviceRecord,
  restricted: { activeIntegrationTokens: number; downlinkVia: string | null } | null,
) {
  const base = {
    ...presentDeviceListItem(d),
    device_details: d.deviceDetails,
    device_info: d.deviceInfo,
    codec_id: d.codecId,
    rules_count: d.rulesCount,
  };
  if (!restricted) return base;
  return {
    ...base,
    credentials: { is_set: d.credentialsSet, rotate: `POST /api/v1/core/devices/${d.id}/credentials` },
    integration: {
      dev_eui: d.devEui,
      serial_number: d.serialNumber,
      uuid: d.uuid,
      mqtt_topic: d.serialNumber ? `devices/${d.serialNumber}/up` : null,
      active_integration_tokens: restricted.activeIntegrationTokens,
      tokens: '/api/v1/core/integrations/tokens',
      // The service names the route by the same three words; the contract types them.
      downlink_via: restricted.downlinkVia as DownlinkVia | null,
    },
  };
}
