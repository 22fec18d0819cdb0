/** Rows of the authorization matrix for codecs, virtual devices and the device import (issue 23). */
import { randomBytes } from 'node:crypto';
import { NOT_LOGGED_IN, OK, type Row } from './matrix-world';

const NO_CODECS = [403, 90010] as const;
const CODEC_NOT_FOUND = [404, 90011] as const;
const NO_VIRTUAL_DEVICES = [403, 90016] as const;
const NOT_OUR_INPUT = [422, 90017] as const;
const NO_DEVICE_EDITS = [403, 90001] as const;
const SCRIPT = 'function decodeUplink(input) { return { data: { first: input.bytes[0] } }; }';
const TEST = { operation: 'decodeUplink', bytes: '01', f_port: 1 };

//                         anonymous      plain          main           admin          superAdmin     otherMain
export const CODEC_ROWS: Row[] = [
  { method: 'GET', path: () => '/api/v1/core/codecs', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/codecs',
    body: () => ({ name: 'Matrix codec', script: SCRIPT }),
    expect: [NOT_LOGGED_IN, NO_CODECS, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/codecs/test',
    body: () => ({ ...TEST, script: SCRIPT }),
    expect: [NOT_LOGGED_IN, NO_CODECS, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/codecs/${w.homeCodecId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, CODEC_NOT_FOUND, CODEC_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/codecs/${w.homeCodecId}`,
    body: () => ({ name: 'Renamed codec' }),
    expect: [NOT_LOGGED_IN, NO_CODECS, OK, OK, CODEC_NOT_FOUND, CODEC_NOT_FOUND],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/core/codecs/${w.homeCodecId}/test`,
    body: () => TEST,
    expect: [NOT_LOGGED_IN, NO_CODECS, OK, OK, CODEC_NOT_FOUND, CODEC_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/codecs/${w.homeCodecId}`,
    expect: [NOT_LOGGED_IN, NO_CODECS, OK, OK, CODEC_NOT_FOUND, CODEC_NOT_FOUND],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/devices/virtual',
    body: (w) => ({
      name: 'Matrix virtual',
      fields: [{ key: 'double', formula: `d${w.homeDeviceId}.temperature * 2` }],
    }),
    expect: [NOT_LOGGED_IN, NO_VIRTUAL_DEVICES, NO_VIRTUAL_DEVICES, OK, NOT_OUR_INPUT, NO_VIRTUAL_DEVICES],
  },
  {
    // Each actor imports into its own (acting) company; a plain user may not.
    method: 'POST',
    path: () => '/api/v1/core/devices/import',
    contentType: 'text/csv',
    body: () => `Name,Serial Number\nMatrix import,SN-${randomBytes(6).toString('hex')}\n`,
    expect: [NOT_LOGGED_IN, NO_DEVICE_EDITS, OK, OK, OK, OK],
  },
];
