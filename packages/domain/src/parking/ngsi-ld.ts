/**
 * A car park as FIWARE smart data models (dataModel.Parking, NGSI-LD normalized): the area as an
 * OffStreetParking, its FIX bays as ParkingSpots, so open data portals that read these models can
 * publish it (issue #25; research/modules.md section 2).
 */
import type { ParkingAreaIcon, ParkingAreaType } from '../constants/ui';
import type { BayStatus } from './free-slots';

export const NGSI_LD_CONTEXT = [
  'https://raw.githubusercontent.com/smart-data-models/dataModel.Parking/master/context.jsonld',
  'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context.jsonld',
];

/** FIWARE `layout` per icon (DATEX II): PS car park and TP temporary: surface; PG multiStorey; PU underground. */
export const NGSI_LAYOUT: Record<ParkingAreaIcon, string> = {
  PS: 'surface',
  TP: 'surface',
  PG: 'multiStorey',
  PU: 'underground',
};

export interface NgsiArea {
  uuid: string;
  name: string;
  type: ParkingAreaType;
  icon: ParkingAreaIcon;
  capacity: number;
  freeSlots: number | null;
  occupiedSlots: number;
  maxParkingMinutes: number | null;
  latitude: number | null;
  longitude: number | null;
  geometry: Record<string, unknown> | null;
  validFrom: string | null;
  validTo: string | null;
  observedAt: string | null;
  bays: {
    deviceUuid: string;
    label: string | null;
    status: BayStatus;
    since: string | null;
    index: number;
  }[];
}

const prop = (value: unknown, observedAt?: string | null) =>
  observedAt ? { type: 'Property', value, observedAt } : { type: 'Property', value };
const rel = (object: string | string[]) => ({ type: 'Relationship', object });

const areaId = (a: NgsiArea) => `urn:ngsi-ld:OffStreetParking:${a.uuid}`;
const spotId = (a: NgsiArea, index: number) => `urn:ngsi-ld:ParkingSpot:${a.uuid}-${index}`;

function location(a: NgsiArea) {
  if (a.geometry) return { location: { type: 'GeoProperty', value: a.geometry } };
  if (a.latitude !== null && a.longitude !== null)
    return {
      location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [a.longitude, a.latitude] } },
    };
  return {};
}

/** The area and its bays as NGSI-LD entities (the area first). */
export function toNgsiLd(a: NgsiArea): Record<string, unknown>[] {
  const park: Record<string, unknown> = {
    id: areaId(a),
    type: 'OffStreetParking',
    name: prop(a.name),
    totalSpotNumber: prop(a.capacity),
    occupancyDetectionType: prop([a.type === 'FIX' ? 'singleSpaceDetection' : 'modelBased']),
    layout: prop([NGSI_LAYOUT[a.icon]]),
    category: prop(a.icon === 'TP' ? ['public', 'temporary'] : ['public']),
    ...location(a),
    '@context': NGSI_LD_CONTEXT,
  };
  if (a.freeSlots !== null) {
    park.availableSpotNumber = prop(a.freeSlots, a.observedAt);
    park.occupiedSpotNumber = prop(a.occupiedSlots, a.observedAt);
    park.status = prop([a.freeSlots === 0 ? 'full' : 'spacesAvailable']);
  }
  if (a.maxParkingMinutes !== null) park.maximumParkingDuration = prop(`PT${a.maxParkingMinutes}M`);
  if (a.validFrom) park.validFrom = prop(a.validFrom);
  if (a.validTo) park.validTo = prop(a.validTo);
  const spots = a.type === 'FIX' ? a.bays : [];
  if (spots.length > 0) {
    const ids = spots.map((b) => spotId(a, b.index));
    park.refParkingSpot = rel(ids.length === 1 ? ids[0]! : ids);
  }
  return [
    park,
    ...spots.map((b) => ({
      id: spotId(a, b.index),
      type: 'ParkingSpot',
      ...(b.label ? { name: prop(b.label) } : {}),
      status: prop(b.status, b.since),
      category: prop(['offStreet']),
      refParkingSite: rel(areaId(a)),
      refDevice: rel(`urn:ngsi-ld:Device:${b.deviceUuid}`),
      '@context': NGSI_LD_CONTEXT,
    })),
  ];
}
