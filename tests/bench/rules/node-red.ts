/** Node-RED 4 embedded with a generated flow doing what our ten rules and the notifier do. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { startOwnMosquitto } from '../lib/mosquitto.js';
import { startMailSink } from './mail-sink.js';
import {
  BELOW,
  CONDITIONS,
  MOSQUITTO_CONNECTIONS,
  MOSQUITTO_URL,
  NODE_RED_OWN_MOSQUITTO,
  SUBJECT,
  sleep,
  WINDOW_NODE_RED,
} from './settings.js';
import { connectPublishers, countPubacks, type Side } from './side.js';

// -------------------------------------------------------------------------------------------- Node-RED
interface NodeRed {
  init: (server: Server, settings: Record<string, unknown>) => void;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The ten conditions with the rules engine's episode semantics (fire once per episode, re-arm when it ends). */
const CONDITIONS_FUNCTION = `
const bench = global.get('bench');
const conditions = ${JSON.stringify(CONDITIONS)};
const v = msg.payload && msg.payload.temperature;
if (typeof v !== 'number') return null;
const key = msg.topic;
const state = context.get(key) || { prev: null, holding: conditions.map(() => false) };
let fired = null;
for (let i = 0; i < conditions.length; i++) {
  const c = conditions[i];
  let holds;
  switch (c.operator) {
    case 'lte': holds = v <= c.value; break;
    case 'gte': holds = v >= c.value; break;
    case 'eq': holds = Math.abs(v - c.value) <= 1e-9 * Math.max(1, Math.abs(v), Math.abs(c.value)); break;
    case 'in': holds = v >= c.rangeMin && v <= c.rangeMax; break;
    case 'out': holds = v < c.rangeMin || v > c.rangeMax; break;
    case 'rie': holds = state.holding[i] ? v >= c.value : state.prev !== null && state.prev < c.value && v >= c.value; break;
    case 'fae': holds = state.holding[i] ? v <= c.value : state.prev !== null && state.prev > c.value && v <= c.value; break;
  }
  if (holds && !state.holding[i] && c.fires) fired = { field: 'temperature', value: v };
  state.holding[i] = holds;
}
state.prev = v;
context.set(key, state);
bench.evaluated();
if (!fired) return null;
msg.fired = fired;
return msg;
`;

const SEND_FUNCTION = `
const bench = global.get('bench');
const subject = ${JSON.stringify(SUBJECT)}.replace('{value}', String(msg.fired.value));
bench.transport.sendMail({
  from: 'Node-RED <no-reply@localhost>',
  to: 'bench@example.test',
  subject,
  text: msg.topic + ': temperature ' + msg.fired.value,
}).then(() => node.done(), (err) => node.done(err));
return null;
`;

export async function nodeRedSide(): Promise<Side> {
  const mail = await startMailSink();
  const userDir = mkdtempSync(join(tmpdir(), 'iot-bench-node-red-'));
  const prefix = `bench-node-red-${randomBytes(4).toString('hex')}`;
  const mosquitto = NODE_RED_OWN_MOSQUITTO ? await startOwnMosquitto() : undefined;
  const brokerUrl = mosquitto?.url ?? MOSQUITTO_URL;
  const u = new URL(brokerUrl);
  const flows = [
    { id: 'tab1', type: 'tab', label: 'bench' },
    {
      id: 'broker1',
      type: 'mqtt-broker',
      name: 'mosquitto',
      broker: u.hostname,
      port: u.port || '1883',
      clientid: `${prefix}-sub`,
      autoConnect: true,
      usetls: false,
      protocolVersion: '4',
      keepalive: '60',
      cleansession: true,
    },
    {
      id: 'in1',
      type: 'mqtt in',
      z: 'tab1',
      name: 'uplinks',
      topic: `${prefix}/+/up`,
      qos: '1',
      datatype: 'json',
      broker: 'broker1',
      nl: false,
      rap: true,
      rh: 0,
      inputs: 0,
      wires: [['cond1']],
    },
    {
      id: 'cond1',
      type: 'function',
      z: 'tab1',
      name: 'ten conditions',
      func: CONDITIONS_FUNCTION,
      outputs: 1,
      wires: [['mail1']],
    },
    {
      id: 'mail1',
      type: 'function',
      z: 'tab1',
      name: 'send email',
      func: SEND_FUNCTION,
      outputs: 0,
      wires: [],
    },
  ];
  const flowFile = join(userDir, 'flows.json');
  writeFileSync(flowFile, JSON.stringify(flows));
  let evaluated = 0;
  // One connection per mail (nodemailer's default transport, no pool); our notifier keeps a pool of
  // connections (SMTP_POOL_CONNECTIONS).
  const transport = nodemailer.createTransport(`smtp://127.0.0.1:${mail.port}`);
  const require = createRequire(import.meta.url);
  const RED = require('node-red') as NodeRed;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  RED.init(server, {
    userDir,
    flowFile,
    httpAdminRoot: false,
    httpNodeRoot: false,
    disableEditor: true,
    credentialSecret: false,
    logging: { console: { level: 'warn', metrics: false, audit: false } },
    functionGlobalContext: {
      bench: {
        transport,
        evaluated: () => {
          evaluated += 1;
        },
      },
    },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
  });
  await RED.start();
  const publishers = await connectPublishers(brokerUrl, prefix, MOSQUITTO_CONNECTIONS);
  const accepted = countPubacks(publishers);
  // Wait until the mqtt in node has subscribed: a probe uplink must be evaluated.
  const probeBy = performance.now() + 15_000;
  while (evaluated === 0 && performance.now() < probeBy) {
    await publishers[0]?.client.publishAsync(`${prefix}/probe/up`, JSON.stringify({ temperature: BELOW }), {
      qos: 1,
    });
    await sleep(200);
  }
  if (evaluated === 0) {
    await mosquitto?.stop();
    throw new Error('Node-RED never received an uplink from Mosquitto');
  }
  const base = evaluated;
  const baseAccepted = accepted();
  return {
    name: `Node-RED 4 (embedded; mqtt in from ${mosquitto ? 'its own Mosquitto' : brokerUrl}, 2 function nodes, nodemailer)`,
    mail,
    publishers,
    accepted: () => accepted() - baseAccepted,
    evaluated: async () => evaluated - base,
    window: WINDOW_NODE_RED,
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      await RED.stop();
      await mosquitto?.stop();
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mail.close();
      rmSync(userDir, { recursive: true, force: true });
    },
  };
}
