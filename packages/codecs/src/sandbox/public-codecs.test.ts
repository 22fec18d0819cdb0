import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodecSandbox, type UserCodec } from '../index.js';

// Real uplinks: ChirpStack v4 "up" events and TTS v3 webhooks from /work/shared/fixtures (see its index.json).
const fixtures = new URL('../../../../../shared/fixtures/uplinks/', import.meta.url);
const examples = new URL('../../examples/', import.meta.url);
const json = (path: string) => JSON.parse(readFileSync(new URL(path, fixtures), 'utf8'));
const script = (file: string) => readFileSync(new URL(file, examples), 'utf8');

let sandbox: CodecSandbox;
beforeAll(async () => {
  sandbox = await CodecSandbox.create();
});
afterAll(() => sandbox.dispose());

const em320: UserCodec = {
  companyId: 3,
  codecId: 'milesight-em320-th',
  script: script('milesight-em320-th.js'),
};
const em310: UserCodec = {
  companyId: 3,
  codecId: 'milesight-em310-udl',
  script: script('milesight-em310-udl.js'),
};

function chirpstack(file: string) {
  const event = json(`chirpstack/${file}`);
  return { bytes: Buffer.from(event.data, 'base64'), fPort: event.fPort, recvTime: new Date(event.time) };
}
function tts(file: string) {
  const event = json(`tts/extras/${file}`);
  const up = event.uplink_message;
  return {
    bytes: Buffer.from(up.frm_payload, 'base64'),
    fPort: up.f_port,
    recvTime: new Date(up.received_at),
  };
}

// Expected values: the TTN device repository's examples for the same bytes (the fixtures carry no
// decoded object), milesight-iot/em320-th-codec.yaml and em310-udl-codec.yaml. For the EM310-UDL the
// repository's example names the key "tilt", while Milesight's own decoder and payload table name it
// "position" (values normal/tilt); we follow the vendor's documentation.
const EM320_UPLINK0 = { battery: 92, temperature: 30.8, humidity: 50.5 };
const EM310_UPLINK0 = { battery: 92, distance: 2116, position: 'tilt' };

describe('public-style codecs decode the fixture uplinks', () => {
  it.each([
    [
      'EM320-TH via ChirpStack v4',
      em320,
      chirpstack('cs-03-thingsboard-milesight-em320-th.json'),
      EM320_UPLINK0,
    ],
    ['EM320-TH via TTS v3', em320, tts('tts-x1-thingsboard-milesight-em320-th.json'), EM320_UPLINK0],
    [
      'EM310-UDL via ChirpStack v4',
      em310,
      chirpstack('cs-04-thingsboard-milesight-em310-udl.json'),
      EM310_UPLINK0,
    ],
    ['EM310-UDL via TTS v3', em310, tts('tts-x2-thingsboard-milesight-em310-udl.json'), EM310_UPLINK0],
  ])('%s', (_name, codec, input, data) => {
    expect(input.fPort).toBe(85);
    expect(sandbox.decodeUplink(codec, input)).toEqual({ data, warnings: [], errors: [] });
  });

  // The same files through their legacy entry points: hide decodeUplink (and Decoder) after loading.
  it.each([
    ['Decoder (TTN v2)', 'decodeUplink = undefined;'],
    ['Decode (ChirpStack v3)', 'decodeUplink = undefined; Decoder = undefined;'],
  ])('the EM320-TH codec through %s', (_name, hide) => {
    const legacy = { ...em320, codecId: `${em320.codecId}-legacy`, script: `${em320.script}\n${hide}` };
    expect(
      sandbox.decodeUplink(legacy, chirpstack('cs-03-thingsboard-milesight-em320-th.json')).data,
    ).toEqual(EM320_UPLINK0);
  });

  it('EM320-TH history records and device info', () => {
    // 0x20 0xCE: 2022-10-12T08:02:38Z, 27.2 °C, 45 %; then 0xFF 0x0F class C.
    const bytes = [0x20, 0xce, 0x9e, 0x74, 0x46, 0x63, 0x10, 0x01, 0x5a, 0xff, 0x0f, 0x02];
    expect(sandbox.decodeUplink(em320, { bytes, fPort: 85, recvTime: new Date() }).data).toEqual({
      'history.0.timestamp': 1_665_561_758,
      'history.0.temperature': 27.2,
      'history.0.humidity': 45,
      lorawan_class: 'Class C',
    });
  });

  it('EM320-TH reports an unknown channel as an error', () => {
    expect(
      sandbox.decodeUplink(em320, { bytes: [0x09, 0x99, 0x00], fPort: 85, recvTime: new Date() }),
    ).toEqual({
      data: {},
      warnings: [],
      errors: ['unknown channel 0x09 type 0x99'],
    });
  });

  it('EM320-TH encodes the report interval as in the TTN repository example', () => {
    expect(sandbox.encodeDownlink(em320, { data: { report_interval: 300 } })).toEqual({
      bytes: Uint8Array.from([0xff, 0x03, 0x2c, 0x01]),
      fPort: 85,
      warnings: [],
      errors: [],
    });
    expect(sandbox.encodeDownlink(em320, { data: { report_interval: 5 } }).errors).toEqual([
      'report_interval must be 60..64800 seconds',
    ]);
  });

  it("the EM310-UDL's Object.assign polyfill stays in its own context", () => {
    sandbox.decodeUplink(em310, { bytes: [0xff, 0x01, 0x21], fPort: 85, recvTime: new Date() });
    const probe: UserCodec = {
      companyId: 4,
      codecId: 'probe',
      script:
        'function decodeUplink() { return { data: { native: String(Object.assign).indexOf("[native code]") >= 0 } }; }',
    };
    expect(sandbox.decodeUplink(probe, { bytes: [], recvTime: new Date() }).data).toEqual({ native: true });
    expect(String(Object.assign)).toContain('[native code]');
    expect(
      sandbox.decodeUplink(em310, { bytes: [0xff, 0x01, 0x21], fPort: 85, recvTime: new Date() }).data,
    ).toEqual({
      ipso_version: 'v2.1',
    });
  });
});
