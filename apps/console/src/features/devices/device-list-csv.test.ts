import { describe, expect, it } from 'vitest';
import type { Device } from '../../types/device';
import { buildDeviceListCsv } from './device-list-csv';

describe('buildDeviceListCsv', () => {
  it('writes the import columns, quoting text with commas and quotes', () => {
    const device = {
      name: 'Boden "Ost", Feld 2',
      device_type: 'nbiot_soil_sensor',
      serial_number: 'SN-1',
      dev_eui: null,
      location: 'Acker',
      latitude: 48.04,
      longitude: 7.57,
      group: { id: 3, name: 'Keller' },
      description: null,
    } as unknown as Device;
    expect(buildDeviceListCsv([device])).toBe(
      'name,type,serial_number,dev_eui,location,latitude,longitude,group,description\n' +
        '"Boden ""Ost"", Feld 2",nbiot_soil_sensor,SN-1,,Acker,48.04,7.57,Keller,\n',
    );
  });
});
