import {
  ENERGY_TRANSDUCER_MULTIPLIERS,
  type InterfaceLanguage,
  MAX_PUMPS,
  MAX_VALVES,
} from '../constants/session';
import { fieldDefinition } from './catalogue';
import { parseVirtualFieldName } from './virtual-field-name';

/**
 * Labels of the data fields of the catalogue (catalogue.ts, spec section 3) in the interface languages:
 * what a person reads instead of the key ("Bodenfeuchte", not `soil_humidity`). One list for the
 * console and the server; fields.test.ts checks that every catalogue field has both.
 */
type Labels = Record<string, string>;

const numbered = (count: number, key: (n: number) => string, label: (n: number) => string): Labels =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i + 1), label(i + 1)]));
const phases = (key: string, label: string): Labels =>
  Object.fromEntries([1, 2, 3].map((n) => [`${key}_l${n}`, `${label} L${n}`]));
const transducers = (importLabel: string, exportLabel: string): Labels =>
  Object.fromEntries(
    ENERGY_TRANSDUCER_MULTIPLIERS.flatMap((x) => [
      [`energy_import_x${x}`, `${importLabel} (x${x})`],
      [`energy_export_x${x}`, `${exportLabel} (x${x})`],
    ]),
  );

const en: Labels = {
  temperature: 'Temperature',
  humidity: 'Humidity',
  dew_point: 'Dew point',
  wet_bulb_temperature: 'Wet-bulb temperature',
  pt100_temperature: 'PT100 temperature',
  heat_index: 'Heat index',
  pressure: 'Air pressure',
  hpa1: 'Air pressure 1',
  co2: 'CO₂',
  brightness: 'Brightness',
  uv_index: 'UV index',
  rain_hourly: 'Rain per hour',
  wind_speed_kmh: 'Wind speed',
  wind_direction: 'Wind direction',
  soil: 'Soil moisture',
  soil_humidity: 'Soil moisture',
  soil_temperature: 'Soil temperature',
  soil_ph: 'Soil pH',
  soil_water_pf1: 'Soil water tension (pF)',
  conductivity: 'Conductivity',
  battery: 'Battery',
  battery_level: 'Battery level',
  battery_voltage: 'Battery voltage',
  signal_strength: 'Signal strength',
  rssi: 'RSSI',
  satellites: 'Satellites',
  flow_rate: 'Flow rate',
  flow_rate_m3h: 'Flow rate',
  water_level_cm: 'Water level',
  water_leak: 'Water leak',
  ...numbered(
    MAX_PUMPS,
    (n) => `pump_${n}`,
    (n) => `Pump ${n}`,
  ),
  ...numbered(
    MAX_VALVES,
    (n) => `valve_${n}`,
    (n) => `Valve ${n}`,
  ),
  ...phases('voltage', 'Voltage'),
  ...phases('current', 'Current'),
  ...phases('power', 'Power'),
  power_total: 'Total power',
  energy_import: 'Energy import',
  energy_export: 'Energy export',
  ...transducers('Energy import', 'Energy export'),
  heat_energy: 'Heat energy',
  thermal_power: 'Thermal power',
  ...numbered(
    4,
    (n) => `digital_input_${n}`,
    (n) => `Digital input ${n}`,
  ),
  ...numbered(
    4,
    (n) => `digital_output_${n}`,
    (n) => `Digital output ${n}`,
  ),
  ...numbered(
    4,
    (n) => `counter_${n}`,
    (n) => `Counter ${n}`,
  ),
  ...numbered(
    2,
    (n) => `relay_output_${n}`,
    (n) => `Relay ${n}`,
  ),
  ...numbered(
    2,
    (n) => `gpio_${n}`,
    (n) => `GPIO ${n}`,
  ),
  occupied: 'Occupied',
  pax_count: 'People count',
  door_open: 'Door open',
  door_open_duration: 'Door open duration',
  pir_motion: 'Motion',
  tilt: 'Tilt',
  position_angle: 'Position angle',
  distance: 'Distance',
  sound_level_min: 'Sound level (min)',
  sound_level_avg: 'Sound level (avg)',
  sound_level_max: 'Sound level (max)',
  vehicle_count: 'Vehicle count',
  vehicle_class: 'Vehicle class',
  latitude: 'Latitude',
  longitude: 'Longitude',
  geo: 'Position',
};

const de: Labels = {
  temperature: 'Temperatur',
  humidity: 'Luftfeuchte',
  dew_point: 'Taupunkt',
  wet_bulb_temperature: 'Feuchtkugeltemperatur',
  pt100_temperature: 'PT100-Temperatur',
  heat_index: 'Hitzeindex',
  pressure: 'Luftdruck',
  hpa1: 'Luftdruck 1',
  co2: 'CO₂',
  brightness: 'Helligkeit',
  uv_index: 'UV-Index',
  rain_hourly: 'Regen pro Stunde',
  wind_speed_kmh: 'Windgeschwindigkeit',
  wind_direction: 'Windrichtung',
  soil: 'Bodenfeuchte',
  soil_humidity: 'Bodenfeuchte',
  soil_temperature: 'Bodentemperatur',
  soil_ph: 'Boden-pH',
  soil_water_pf1: 'Bodenwasserspannung (pF)',
  conductivity: 'Leitfähigkeit',
  battery: 'Batterie',
  battery_level: 'Batteriestand',
  battery_voltage: 'Batteriespannung',
  signal_strength: 'Signalstärke',
  rssi: 'RSSI',
  satellites: 'Satelliten',
  flow_rate: 'Durchfluss',
  flow_rate_m3h: 'Durchfluss',
  water_level_cm: 'Wasserstand',
  water_leak: 'Wasserleck',
  ...numbered(
    MAX_PUMPS,
    (n) => `pump_${n}`,
    (n) => `Pumpe ${n}`,
  ),
  ...numbered(
    MAX_VALVES,
    (n) => `valve_${n}`,
    (n) => `Ventil ${n}`,
  ),
  ...phases('voltage', 'Spannung'),
  ...phases('current', 'Strom'),
  ...phases('power', 'Leistung'),
  power_total: 'Gesamtleistung',
  energy_import: 'Energiebezug',
  energy_export: 'Energieeinspeisung',
  ...transducers('Energiebezug', 'Energieeinspeisung'),
  heat_energy: 'Wärmeenergie',
  thermal_power: 'Wärmeleistung',
  ...numbered(
    4,
    (n) => `digital_input_${n}`,
    (n) => `Digitaleingang ${n}`,
  ),
  ...numbered(
    4,
    (n) => `digital_output_${n}`,
    (n) => `Digitalausgang ${n}`,
  ),
  ...numbered(
    4,
    (n) => `counter_${n}`,
    (n) => `Zähler ${n}`,
  ),
  ...numbered(
    2,
    (n) => `relay_output_${n}`,
    (n) => `Relais ${n}`,
  ),
  ...numbered(
    2,
    (n) => `gpio_${n}`,
    (n) => `GPIO ${n}`,
  ),
  occupied: 'Belegt',
  pax_count: 'Personenzahl',
  door_open: 'Tür offen',
  door_open_duration: 'Tür-offen-Dauer',
  pir_motion: 'Bewegung',
  tilt: 'Neigung',
  position_angle: 'Lagewinkel',
  distance: 'Abstand',
  sound_level_min: 'Schallpegel (min)',
  sound_level_avg: 'Schallpegel (Mittel)',
  sound_level_max: 'Schallpegel (max)',
  vehicle_count: 'Fahrzeuganzahl',
  vehicle_class: 'Fahrzeugklasse',
  latitude: 'Breitengrad',
  longitude: 'Längengrad',
  geo: 'Position',
};

export const FIELD_LABELS: Readonly<Record<InterfaceLanguage, Readonly<Labels>>> = { en, de };

/**
 * What a person reads for a data field: a virtual field (`virtual.<uuid>.<name>`) its given name, a
 * catalogue field its label in `language`, any other field its key. Without a unit.
 */
export function fieldLabel(name: string, language: InterfaceLanguage): string {
  const virtual = parseVirtualFieldName(name);
  if (virtual) return virtual.name;
  return (Object.hasOwn(FIELD_LABELS[language], name) ? FIELD_LABELS[language][name] : undefined) ?? name;
}

/** The label with the catalogue's unit, e.g. "Temperatur (°C)"; `unit` for fields the catalogue lacks. */
export function fieldLabelWithUnit(name: string, language: InterfaceLanguage, unit?: string | null): string {
  const label = fieldLabel(name, language);
  const shown = unit ?? fieldDefinition(name)?.unit;
  return shown ? `${label} (${shown})` : label;
}
