/** Starts ingest for a test: in-process log (or a given one), HTTP on a free port, log lines captured. */
import { loadConfig } from '@iot/config';
import type { Db } from '@iot/db';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import { pino } from 'pino';
import { type IngestService, type StartIngestOptions, startIngest } from '../index.js';

export interface TestIngest {
  service: IngestService;
  url: string;
  /** Structured log lines written so far. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

export function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

export async function startTestIngest(
  db: Db,
  overrides: Partial<Omit<StartIngestOptions, 'db' | 'log' | 'config'>> & {
    env?: Record<string, string>;
  } = {},
): Promise<TestIngest> {
  const { env, ...rest } = overrides;
  const config = loadConfig({ PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', ...env });
  const { log, lines } = captureLogger();
  const eventLog: EventLog = rest.eventLog ?? createInProcessEventLog({ capacity: 10_000 });
  const service = await startIngest({
    config,
    db,
    log,
    mqtt: false,
    storageWriter: { maxBatch: 500, maxWaitMs: 5 },
    ...rest,
    eventLog,
  });
  return {
    service,
    url: service.httpUrl ?? '',
    lines,
    stop: async () => {
      await service.stop();
      if (!rest.eventLog) await eventLog.close();
    },
  };
}

/** Polls `read` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(read: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the storage writer committed everything published so far. */
export async function drained(service: IngestService, timeoutMs = 5000): Promise<void> {
  const ok = await eventually(
    async () => (await service.eventLog.lag(service.topic, 'storage-writer')) === 0,
    timeoutMs,
  );
  if (!ok) throw new Error('the storage writer did not catch up');
}
