/**
 * npm run simulate -- --devices N --rate R [--url http://localhost:8080] [--ingest-url URL]
 *   [--mqtt mqtt://localhost:1883] [--transport mqtt|http|mixed] [--email E --password P] [--duration S]
 *
 * Signs in like a person, issues new tokens for the first N devices of the company and sends R uplinks per
 * second in total until Ctrl-C (or --duration). Prints progress every 5 s and a summary.
 */
import { parseArgs } from 'node:util';
import { runSimulation, type SimulationStats, type Transport } from './run-simulation.js';

const USAGE = `usage: npm run simulate -- --devices N --rate R [--url http://localhost:8080] [--ingest-url URL]
       [--mqtt mqtt://localhost:1883] [--transport mqtt|http|mixed] [--email main@demo.test]
       [--password DemoPass#2026] [--duration S]`;

function line(s: SimulationStats): string {
  const refusedBy = Object.entries(s.refusedBy)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  return (
    `${s.elapsedSeconds.toFixed(0).padStart(5)} s  sent ${s.sent}  accepted ${s.accepted}  refused ${s.refused}` +
    `${refusedBy ? ` (${refusedBy})` : ''}  retry-after waits ${s.retryAfterWaits}` +
    `${s.newTokenWaits ? `  new-token waits ${s.newTokenWaits}` : ''}${s.unsent ? `  unsent ${s.unsent}` : ''}` +
    `  back-pressure skips ${s.backPressureSkips}  rate ${s.rate.toFixed(1)}/s`
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string' },
      rate: { type: 'string' },
      url: { type: 'string', default: 'http://localhost:8080' },
      'ingest-url': { type: 'string' },
      mqtt: { type: 'string', default: 'mqtt://localhost:1883' },
      transport: { type: 'string', default: 'mqtt' },
      email: { type: 'string', default: 'main@demo.test' },
      password: { type: 'string', default: 'DemoPass#2026' },
      duration: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const devices = Number(values.devices);
  const rate = Number(values.rate);
  const duration = values.duration === undefined ? undefined : Number(values.duration);
  const transport = values.transport as Transport;
  if (
    values.help ||
    !Number.isInteger(devices) ||
    devices < 1 ||
    !(rate > 0) ||
    !['mqtt', 'http', 'mixed'].includes(transport) ||
    (duration !== undefined && !(duration > 0))
  ) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }

  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    console.log('\nstopping (waiting for receipts; Ctrl-C again to quit at once)');
    controller.abort();
  });

  console.warn(
    `warning: this issues NEW tokens for the first ${devices} devices of ${values.email}'s company;` +
      ' their previous tokens stop working (real devices using them will be refused).',
  );
  const summary = await runSimulation({
    devices,
    rate,
    url: values.url,
    ingestUrl: values['ingest-url'],
    mqttUrl: values.mqtt,
    transport,
    email: values.email,
    password: values.password,
    durationSeconds: duration,
    signal: controller.signal,
    onReady: (fleet) =>
      console.log(
        `simulating ${fleet.length} devices over ${transport} at ${rate} uplinks/s in total:` +
          ` ${fleet.map((d) => d.id).join(', ')}`,
      ),
    onProgress: (s) => console.log(line(s)),
    onWarning: (m) => console.warn(`warning: ${m}`),
  });
  console.log(`summary: ${line(summary).trim()} (average over the run)`);
  return summary.refused > 0 && summary.accepted === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`simulate: ${(error as Error).message}`);
    process.exit(1);
  },
);
