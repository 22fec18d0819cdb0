import { describe, expect, it } from 'vitest';
import { readMqttPayload } from './mqtt-uplink.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe('readMqttPayload', () => {
  it('reads a JSON object of data fields as JSON', () => {
    expect(readMqttPayload(bytesOf(' {"temperature": 21.5}'))).toEqual({ json: { temperature: 21.5 } });
  });

  it.each([
    ['a lone surrogate', bytesOf('{"name": "\\ud800"}')],
    ['a NUL character', bytesOf('{"name": "a\\u0000b"}')],
    ['invalid UTF-8', Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
    ['nesting of 20,000 levels', bytesOf(`{"a":${'['.repeat(20000)}${']'.repeat(20000)}}`)],
  ])('passes JSON with %s on as bytes, which the device log keeps', (_case, payload) => {
    expect(readMqttPayload(payload)).toEqual({ bytes: payload });
  });
});
