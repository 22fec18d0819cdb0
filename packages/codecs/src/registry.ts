import { nbiotButton } from './drivers/nbiot-button.js';
import { nbiotDistanceSensor } from './drivers/nbiot-distance-sensor.js';
import { nbiotFrostSensor } from './drivers/nbiot-frost-sensor.js';
import { nbiotSoilSensor } from './drivers/nbiot-soil-sensor.js';
import { nbiotWeatherstation } from './drivers/nbiot-weatherstation.js';
import { srdButton } from './drivers/srd-button.js';
import { srdGateway } from './drivers/srd-gateway.js';
import type { Driver, DriverInfo } from './types.js';

/** The built-in drivers, one per device type of spec section 3, in the spec's order. */
export const BUILT_IN_DRIVERS: readonly Driver[] = [
  nbiotButton,
  srdButton,
  srdGateway,
  nbiotSoilSensor,
  nbiotFrostSensor,
  nbiotDistanceSensor,
  nbiotWeatherstation,
];

const byId = new Map(BUILT_IN_DRIVERS.map((driver) => [driver.id, driver]));

export function getDriver(id: string): Driver | undefined {
  return byId.get(id);
}

/** The driver list GET /core/drivers answers with. */
export function listDrivers(): DriverInfo[] {
  return BUILT_IN_DRIVERS.map((driver) => ({
    id: driver.id,
    deviceType: driver.deviceType,
    description: driver.description,
    commands: [...driver.commands],
  }));
}
