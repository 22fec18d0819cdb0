import type { FarmingField, FieldBoundary, FieldDevice, Parcel } from '@iot/contracts';
import type { FarmingFieldRecord, FieldDeviceRecord, ParcelRecord } from '@iot/db';

export function presentField(f: FarmingFieldRecord): FarmingField {
  return {
    id: f.id,
    name: f.name,
    count_devices: f.deviceIds.length,
    count_parcels: f.parcels.length,
    size_m2: f.sizeM2,
    device_ids: f.deviceIds,
    parcels: f.parcels,
    plant: f.plantCode,
    soil: f.soilCode,
    boundary: (f.boundary as FieldBoundary | null) ?? null,
    boundary_area_m2: f.boundaryAreaM2,
    updated_at: f.updatedAt.toISOString(),
  };
}

export function presentParcel(p: ParcelRecord): Parcel {
  return {
    id: p.id,
    parcel_id: p.parcelId,
    registration_number: p.registrationNumber,
    size_m2: p.sizeM2,
    field: p.fieldId === null ? null : { id: p.fieldId, name: p.fieldName ?? '' },
    boundary: (p.boundary as FieldBoundary | null) ?? null,
    valid_from: p.validFrom,
    valid_to: p.validTo,
  };
}

export function presentFieldDevice(d: FieldDeviceRecord): FieldDevice {
  return {
    id: d.id,
    name: d.name,
    device_type: d.deviceType,
    field_id: d.fieldId,
    latitude: d.latitude,
    longitude: d.longitude,
  };
}
