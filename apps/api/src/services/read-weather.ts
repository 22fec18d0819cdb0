/**
 * Weather at a point (GET /core/weather, issue 24, research §4), offline-safe and honest about its source:
 * 1. the company's own weather stations within the configured radius whose value is fresh (spec section 4:
 *    stale after 8 hours), per parameter from the nearest station that has it;
 * 2. the provider (WEATHER_PROVIDER_URL) fills the parameters no station had;
 * 3. no station and no provider (or a failed provider without cache): empty values with a reason.
 * Every value carries its source and time.
 */
import type { Db } from '@iot/db';
import { withTenant } from '@iot/db';
import { isStale } from '@iot/domain';
import type { AuthContext } from '../types';
import type { WeatherProvider } from './weather-providers';

// Data field -> [weather parameter, unit]. Stations are nbiot_weatherstation devices or any device
// reporting one of the fields only weather stations report (wind, rain, air pressure).
const STATION_FIELDS: Record<string, [string, string]> = {
  temperature: ['temperature', '°C'],
  humidity: ['relative_humidity', '%'],
  rain_hourly: ['precipitation', 'mm'],
  wind_speed_kmh: ['wind_speed', 'km/h'],
  wind_direction: ['wind_direction', '°'],
  pressure: ['pressure', 'hPa'],
  uv_index: ['uv_index', ''],
};
const WEATHER_ONLY_FIELDS = ['rain_hourly', 'wind_speed_kmh', 'wind_direction', 'pressure'];

export interface WeatherValue {
  value: number;
  unit: string;
  observed_at: string;
  source: {
    kind: 'device' | 'provider';
    device_id?: number;
    distance_m?: number;
    provider?: string;
    station?: string;
  };
}

export interface WeatherResult {
  values: Record<string, WeatherValue>;
  reason: string | null;
  stale: boolean;
}

interface StationRow {
  id: number;
  latitude: number;
  longitude: number;
  data: Record<string, unknown>;
  field_times: Record<string, string>;
}

function distanceM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

async function stationValues(
  db: Db,
  auth: AuthContext,
  lat: number,
  lng: number,
  radiusKm: number,
  now: Date,
) {
  const { rows } = await withTenant(db, auth.companyId, (tx) =>
    tx.query<StationRow>(
      `SELECT d.id::int AS id, coalesce(c.latitude, d.latitude)::float8 AS latitude,
              coalesce(c.longitude, d.longitude)::float8 AS longitude, c.data, c.field_times
         FROM devices d JOIN device_current c ON c.device_id = d.id AND c.company_id = $1
        WHERE d.company_id = $1 AND coalesce(c.latitude, d.latitude) IS NOT NULL
          AND coalesce(c.longitude, d.longitude) IS NOT NULL
          AND (d.device_type = 'nbiot_weatherstation' OR c.data ?| $2::text[])`,
      [auth.companyId, WEATHER_ONLY_FIELDS],
    ),
  );
  const near = rows
    .map((row) => ({ row, distance: distanceM(lat, lng, row.latitude, row.longitude) }))
    .filter((s) => s.distance <= radiusKm * 1000)
    .sort((a, b) => a.distance - b.distance);
  const values: Record<string, WeatherValue> = {};
  for (const { row, distance } of near) {
    for (const [field, [parameter, unit]] of Object.entries(STATION_FIELDS)) {
      const value = Number(row.data[field]);
      const at = row.field_times[field];
      if (values[parameter] || row.data[field] == null || !Number.isFinite(value) || !at || isStale(at, now))
        continue;
      values[parameter] = {
        value,
        unit,
        observed_at: new Date(at).toISOString(),
        source: { kind: 'device', device_id: row.id, distance_m: Math.round(distance) },
      };
    }
  }
  return values;
}

export async function readWeather(
  db: Db,
  auth: AuthContext,
  point: { lat: number; lng: number },
  options: { provider: WeatherProvider | null; radiusKm: number; now?: Date },
): Promise<WeatherResult> {
  const values = await stationValues(
    db,
    auth,
    point.lat,
    point.lng,
    options.radiusKm,
    options.now ?? new Date(),
  );
  const complete = Object.keys(STATION_FIELDS).every((f) => values[STATION_FIELDS[f]![0]]);
  if (complete || !options.provider) {
    const reason = Object.keys(values).length > 0 ? null : 'no_station_no_provider';
    return { values, reason, stale: false };
  }
  const fetched = await options.provider.current(point.lat, point.lng);
  if (!fetched)
    return { values, reason: Object.keys(values).length > 0 ? null : 'provider_failed', stale: false };
  for (const [parameter, v] of Object.entries(fetched.answer.values)) {
    if (values[parameter]) continue;
    values[parameter] = {
      value: v.value,
      unit: v.unit,
      observed_at: v.observed_at,
      source: {
        kind: 'provider',
        provider: fetched.answer.provider,
        ...(v.station ? { station: v.station } : {}),
      },
    };
  }
  return { values, reason: Object.keys(values).length > 0 ? null : 'provider_empty', stale: fetched.stale };
}
