/**
 * The bench's lean MQTT publisher against the machine's Mosquitto (127.0.0.1:1883): its templated PUBLISH
 * bytes equal mqtt-packet's own encoding, and what it publishes arrives intact (3.1.1 and 5, payloads whose
 * remaining length takes 1, 2 and 3 bytes), each publish acknowledged once.
 */
import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import * as mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { encodeTemplate, openConnection, publishBytes, writePublish } from './publishers.js';

const URL = 'mqtt://127.0.0.1:1883';
const PAYLOAD_SIZES = [0, 1, 100, 127 - 40, 300, 20_000, 70_000];

describe('raw bench publisher', () => {
  it.each([4, 5] as const)('encodes PUBLISH like mqtt-packet (protocol %i)', (protocolVersion) => {
    const topic = `devices/${randomBytes(16).toString('hex')}/up`;
    const template = encodeTemplate(topic, protocolVersion);
    for (const size of PAYLOAD_SIZES) {
      for (const id of [1, 255, 256, 65_535]) {
        const payload = randomBytes(size);
        const expected = mqttPacket.generate(
          { cmd: 'publish', topic, payload, qos: 1, dup: false, retain: false, messageId: id },
          { protocolVersion },
        );
        const out = Buffer.alloc(publishBytes(template, size) + 3);
        const end = writePublish(out, 3, template, id, payload);
        expect(end - 3).toBe(expected.length);
        expect(out.subarray(3, end).equals(expected)).toBe(true);
      }
    }
  });

  it.each([4, 5] as const)(
    'publishes QoS 1 to Mosquitto, every publish acknowledged once (protocol %i)',
    async (protocolVersion) => {
      const prefix = `bench-raw-test/${randomBytes(6).toString('hex')}`;
      const received: Array<{ topic: string; payload: Buffer }> = [];
      const sub = await mqtt.connectAsync(URL, { reconnectPeriod: 0 });
      await sub.subscribeAsync(`${prefix}/#`, { qos: 1 });
      sub.on('message', (topic, payload) => received.push({ topic, payload }));
      const conn = await openConnection('raw', {
        url: URL,
        clientId: `bench-raw-test-${randomBytes(4).toString('hex')}`,
        protocolVersion,
      });
      try {
        const templates = [0, 1, 2].map((i) => conn.template(`${prefix}/${i}/up`));
        const sent: Array<{ topic: string; payload: Buffer }> = [];
        const acks = new Map<number, number>();
        const errors: Error[] = [];
        // 100 rounds, so the packet ids run past a few hundred and several publishes share a socket write.
        for (let round = 0; round < 100; round++) {
          for (const size of PAYLOAD_SIZES) {
            const template = templates[round % templates.length];
            if (!template) throw new Error('no template');
            const payload = randomBytes(size);
            const n = sent.length;
            sent.push({ topic: template.topic, payload });
            conn.publish(template, payload, (error) => {
              if (error) errors.push(error);
              acks.set(n, (acks.get(n) ?? 0) + 1);
            });
          }
        }
        expect(conn.inflight).toBe(sent.length);
        await expect.poll(() => acks.size).toBe(sent.length);
        await expect.poll(() => received.length).toBe(sent.length);
        expect(errors).toEqual([]);
        expect([...acks.values()].every((count) => count === 1)).toBe(true);
        expect(conn.inflight).toBe(0);
        const key = (m: { topic: string; payload: Buffer }) => `${m.topic} ${m.payload.toString('hex')}`;
        expect(received.map(key).sort()).toEqual(sent.map(key).sort());
      } finally {
        await conn.end();
        await sub.endAsync();
      }
    },
  );

  it('fails a publish on a closed connection instead of dropping it', async () => {
    const conn = await openConnection('raw', { url: URL, clientId: `bench-raw-test-${Date.now()}` });
    await conn.end();
    const error = await new Promise<Error | undefined>((resolve) =>
      conn.publish(conn.template('bench-raw-test/closed'), Buffer.from('x'), resolve),
    );
    expect(error).toBeInstanceOf(Error);
  });
});
