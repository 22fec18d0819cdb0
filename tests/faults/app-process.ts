/**
 * One app of the distributed profile in a process of its own, as infra/docker-compose.yml deploys it, for
 * the fault suite: started by `startAppProcess` (fork, with tsx), killed with SIGKILL by the test. Each run
 * has its own NATS stream prefix, uplinks topic, BullMQ prefix and MQTT share group, so runs never meet.
 * The child reports { ready, httpUrl } over IPC once it is running.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@iot/config';
import { openDb } from '@iot/db';
import { createNatsEventLog } from '@iot/event-log';
import { startIngest } from '@iot/ingest';
import { openJobQueue } from '@iot/jobs';
import { startNotifier } from '@iot/notifier';
import { startRulesWorker } from '@iot/rules-worker';
import { createLogger } from '@iot/runtime';
import { build } from 'esbuild';

export interface AppProcessOptions {
  role: 'ingest' | 'rules-worker' | 'notifier';
  env: Record<string, string>;
  streamPrefix: string;
  topic: string;
  queuePrefix: string;
  shareGroup: string;
}

export interface AppProcess {
  child: ChildProcess;
  /** The ingest HTTP front door (`…/ingest/v1`), for ingest. */
  httpUrl: string | undefined;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

const CHILD_ENV = 'IOT_FAULT_APP';

async function childMain(o: AppProcessOptions): Promise<void> {
  const config = loadConfig(o.env);
  const log = createLogger({ level: 'warn', name: `fault-${o.role}` });
  const db = await openDb(config);
  const stops: (() => Promise<void>)[] = [() => db.close()];
  const openLog = async () => {
    const eventLog = await createNatsEventLog({
      servers: config.NATS_URL ?? '',
      streamPrefix: o.streamPrefix,
    });
    stops.push(() => eventLog.close());
    return eventLog;
  };
  const openQueue = () => {
    const queue = openJobQueue(config, { db, prefix: o.queuePrefix });
    stops.push(() => queue.close());
    return queue;
  };
  let httpUrl: string | undefined;
  if (o.role === 'ingest') {
    const ingest = await startIngest({
      config,
      db,
      log,
      eventLog: await openLog(),
      http: { port: 0, host: '127.0.0.1' },
      publisher: { topic: o.topic },
      // HTTP only: the machine's Mosquitto authenticates clients against an ingest it knows, not this one.
      mqtt: false,
    });
    httpUrl = ingest.httpUrl;
    stops.push(() => ingest.stop());
  } else if (o.role === 'rules-worker') {
    const worker = await startRulesWorker({
      config,
      db,
      log,
      eventLog: await openLog(),
      topic: o.topic,
      queue: openQueue(),
    });
    stops.push(() => worker.stop());
  } else {
    const notifier = await startNotifier({ config, db, log, queue: openQueue() });
    stops.push(() => notifier.stop());
  }
  process.on('message', (m: string) => {
    if (m !== 'stop') return;
    void (async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
      process.exit(0);
    })();
  });
  process.send?.({ ready: true, httpUrl });
}

const own = process.env[CHILD_ENV];
if (own) await childMain(JSON.parse(own) as AppProcessOptions);

let bundled: Promise<string> | undefined;

/**
 * This file bundled with the workspace packages (as tsup bundles an app; npm packages stay external), into
 * dist-test/ beside it so they resolve from node_modules: a child then starts in a second or two, where
 * loading the TypeScript sources through tsx took close to a minute on the loaded test machine.
 */
function bundle(): Promise<string> {
  const outfile = fileURLToPath(new URL('./dist-test/app-process.mjs', import.meta.url));
  bundled ??= build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'external-npm-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@iot/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  }).then(() => outfile);
  return bundled;
}

/** Starts one app in its own process; resolves once it runs. */
export async function startAppProcess(o: AppProcessOptions): Promise<AppProcess> {
  const child = fork(await bundle(), [], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(o) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const httpUrl = await new Promise<string | undefined>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`${o.role} process exited with ${code} before it was ready`)),
    );
    child.on('message', (m: { ready?: boolean; httpUrl?: string }) => {
      if (m.ready) resolve(m.httpUrl);
    });
  });
  child.removeAllListeners('exit');
  return {
    child,
    httpUrl: httpUrl?.replace('localhost', '127.0.0.1'),
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send('stop');
      await exited;
    },
  };
}
