import { readFileSync } from 'node:fs';
import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCodec,
  createCompany,
  createDevice,
  createIntegrationToken,
  randomDevEui,
} from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

// The shared fixture set (see its index.json): real ChirpStack v4 "up" events and TTS v3 uplinks.
const fixtures = new URL('../../../../../shared/fixtures/uplinks/', import.meta.url);
const examples = new URL('../../../../packages/codecs/examples/', import.meta.url);
const fixture = (file: string) => readFileSync(new URL(file, fixtures), 'utf8');
const example = (file: string) => readFileSync(new URL(file, examples), 'utf8');

interface IndexEntry {
  file: string;
  validJson: boolean;
  payloadHex?: string;
}
const index = JSON.parse(fixture('index.json')) as { files: IndexEntry[] };
const validFiles = index.files.filter((f) => f.validJson).map((f) => f.file);

// A codec for tts-03's ASCII payload "Temperature = 0.0".
const TEXT_CODEC = `function decodeUplink(input) {
  var text = String.fromCharCode.apply(null, input.bytes);
  var match = /=\\s*(-?[0-9.]+)/.exec(text);
  return match ? { data: { temperature: parseFloat(match[1]) } } : { errors: ['no reading'] };
}`;

type Decoder = 'em320' | 'em310' | 'text' | null;
const EM320 = { battery: 92, temperature: 30.8, humidity: 50.5 };
const EM310 = { battery: 92, distance: 2116, position: 'tilt' };

// file -> decoder of the device, expected data (null: kept as undecodable raw bytes), measured time.
const EXPECTED: Record<
  string,
  { decoder: Decoder; data: Record<string, unknown> | null; time: string | null }
> = {
  'chirpstack/cs-01-docs-events-up.json': { decoder: null, data: null, time: '2022-07-18T09:34:15.775Z' },
  'chirpstack/cs-02-issue479-up-capture.normalized.json': {
    decoder: null,
    data: null,
    time: '2024-08-09T02:54:27.395Z',
  },
  'chirpstack/cs-03-thingsboard-milesight-em320-th.json': {
    decoder: 'em320',
    data: EM320,
    time: '2023-05-22T07:47:05.404Z',
  },
  'chirpstack/cs-04-thingsboard-milesight-em310-udl.json': {
    decoder: 'em310',
    data: EM310,
    time: '2023-05-22T07:47:05.404Z',
  },
  'chirpstack/cs-05-thingsboard-nwave-g4_nps_sm.json': {
    decoder: null,
    data: null,
    time: '2023-05-22T07:47:05.404Z',
  },
  'tts/tts-01-docs-data-formats-uplink.comma-fixed.json': {
    decoder: null,
    data: { temperature: 1, luminosity: 0.64 },
    time: '2020-02-12T15:15:45.789Z',
  },
  'tts/tts-02-docs-starter-kit-webhook-capture.json': {
    decoder: null,
    data: {
      batteryVoltage: 3.4,
      pressEvent: 1,
      sensorTemperature: 21.5,
      singlePressEventCounter: 16,
      thermistorProperlyConnected: true,
    },
    time: '2025-04-16T11:54:13.787Z',
  },
  'tts/tts-03-docs-mqtt-uplink.json': { decoder: 'text', data: { temperature: 0 }, time: null },
  'tts/tts-04-docs-ubidots-uplink_message-filtered.json': {
    decoder: null,
    data: { humidity: 44, temperature: 32 },
    time: '2021-07-08T11:17:58.984Z',
  },
  'tts/tts-05-lorawan-stack-json-formatter-test.json': { decoder: null, data: { test_key: 42 }, time: null },
  'tts/extras/tts-x1-thingsboard-milesight-em320-th.json': {
    decoder: 'em320',
    data: EM320,
    time: '2023-05-19T05:33:35.641Z',
  },
  'tts/extras/tts-x2-thingsboard-milesight-em310-udl.json': {
    decoder: 'em310',
    data: EM310,
    time: '2023-05-19T05:33:35.641Z',
  },
  'tts/extras/tts-x3-thingsboard-nwave-g4_nps_sm.json': {
    decoder: null,
    data: null,
    time: '2023-05-19T05:33:35.641Z',
  },
};

interface FixtureBody {
  deviceInfo?: { devEui?: unknown };
  end_device_ids?: { dev_eui?: unknown };
}

function devEuiOf(file: string, body: FixtureBody): string | null {
  const raw = file.startsWith('chirpstack/') ? body.deviceInfo?.devEui : body.end_device_ids?.dev_eui;
  return typeof raw === 'string' ? raw.toLowerCase() : null;
}

forEachDb((suite) => {
  describe('network server fixtures', () => {
    let ingest: TestIngest;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db);
    });
    afterAll(async () => ingest.stop());

    it('covers every valid fixture of index.json', () => {
      expect(Object.keys(EXPECTED).sort()).toEqual([...validFiles].sort());
    });

    it.each(validFiles)('accepts %s and stores it for the right device', async (file) => {
      const expected = EXPECTED[file]!;
      const text = fixture(file);
      const body = JSON.parse(text) as FixtureBody;
      const company = await createCompany(suite.db);
      const kind = file.startsWith('chirpstack/') ? 'chirpstack' : 'tts';
      const token = await createIntegrationToken(suite.db, company, kind);
      const scripts = {
        em320: example('milesight-em320-th.js'),
        em310: example('milesight-em310-udl.js'),
        text: TEXT_CODEC,
      };
      const codecId = expected.decoder
        ? await createCodec(suite.db, company, scripts[expected.decoder])
        : null;
      // Fixtures without a DevEUI in the body (field-masked TTS webhooks) name it in the URL instead.
      const bodyEui = devEuiOf(file, body);
      const devEui = bodyEui ?? randomDevEui();
      const device = await createDevice(suite.db, company, { devEui, codecId });
      const url =
        kind === 'chirpstack'
          ? `${ingest.url}/chirpstack?event=up`
          : `${ingest.url}/ttn${bodyEui ? '' : `?dev_eui=${devEui.toUpperCase()}`}`;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: text,
        });
        expect(res.status).toBe(202);
        await drained(ingest.service);
        const data = await suite.db.query<{ data: unknown; created_at: Date }>(
          'SELECT data, created_at FROM device_data WHERE device_id = $1',
          [device.id],
        );
        if (expected.data) {
          expect(data.rows).toHaveLength(1);
          expect(data.rows[0]!.data).toEqual(expected.data);
          if (expected.time) expect(data.rows[0]!.created_at.toISOString()).toBe(expected.time);
        } else {
          expect(data.rows).toEqual([]);
          const logs = await suite.db.query<{ level: number; raw: Uint8Array }>(
            'SELECT level, raw FROM device_logs WHERE device_id = $1',
            [device.id],
          );
          const hex = index.files.find((f) => f.file === file)?.payloadHex ?? '';
          expect(logs.rows.map((r) => [r.level, Buffer.from(r.raw).toString('hex').toUpperCase()])).toEqual([
            [3, hex],
          ]);
        }
        const status = await suite.db.query<{ is_active: boolean; rssi: number | null }>(
          'SELECT c.is_active, c.rssi FROM devices d LEFT JOIN device_current c ON c.device_id = d.id WHERE d.id = $1',
          [device.id],
        );
        expect(status.rows[0]!.is_active).toBe(true);
      } finally {
        // The fixtures share DevEUIs, which are unique platform-wide.
        await suite.db.query('DELETE FROM devices WHERE id = $1', [device.id]);
      }
    });
  });
});
