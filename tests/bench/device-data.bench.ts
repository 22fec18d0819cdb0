/**
 * Benchmark of the chart query (architecture budget: one device, one year of 10-minute data, downsampled,
 * under 100 ms) and of the device list for 10,000 devices, on PostgreSQL and on PGlite.
 *
 *   npx tsx tests/bench/device-data.bench.ts            (or: npm run bench -w @iot/tests)
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres (default)  BENCH_KINDS=postgres,pglite
 *
 * Each kind gets a fresh database (PostgreSQL: bench_<random>, dropped afterwards). Seeded: 52,560 rows
 * (365 days x 144, ending now) for one device with four numeric fields, plus 10,000 devices with latest
 * values. Printed per kind, beside the median of a plain `SELECT count(*)` over the same rows: the year
 * downsampled to 6-hour buckets (a) from the raw rows in one date_bin pass with min, max, sum and count per
 * field, as the API did before the rollups; (b) as the API runs it now, closed buckets from
 * device_rollups and the open tail raw, in a tenant transaction, warm and cold (every rollup deleted
 * before each run, so the run builds them), and the first read after the background rollup builder's work
 * (every rollup deleted, then the year built ahead in the builder's chunks, untimed, before each run), beside
 * the time that background build takes; (c) the whole GET /api/v1/core/data/{id} for four fields
 * (app.inject, session and serialisation included). Then the cost of the rollup triggers on inserts: 10,000
 * live rows (no trigger call, the WHEN clause is false) and 10,000 rows a day old (each invalidates), with
 * the triggers enabled and disabled. And the device list (all 10,000 devices with group and latest values,
 * and a filtered list). Medians of 15 runs after 3 warm-up runs (cold: 5 runs); the machine's load average
 * is printed beside them, because on a shared 2-core machine it moves every figure.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '@iot/api';
import { loadConfig } from '@iot/config';
import {
  backfillChunks,
  buildRollupsAhead,
  countDeviceData,
  listDevices,
  readDeviceDataBuckets,
  readDeviceDataBucketsRolledUp,
  withTenant,
} from '@iot/db';
import {
  BUCKET_SECONDS,
  KINDS,
  MAX_POINTS,
  median,
  openBenchDb,
  RUNS,
  seed,
  signIn,
  YEAR_ROWS,
} from './device-data/setup.js';
import { type RunRecorder, startRun } from './lib/results.js';

async function benchKind(kind: string, recorder: RunRecorder) {
  const { db, drop } = await openBenchDb(kind);
  try {
    const { companyId, deviceId, range, seedMs, from } = await seed(db);
    const fields = ['temperature', 'humidity', 'battery_level', 'wind_speed_kmh'];
    const check = await readDeviceDataBuckets(db, companyId, deviceId, range, fields, BUCKET_SECONDS);
    const rowsInBuckets = check.reduce((sum, b) => sum + b.count, 0);
    if (rowsInBuckets !== YEAR_ROWS)
      throw new Error(`buckets hold ${rowsInBuckets} rows, seeded ${YEAR_ROWS}`);
    const rolledUp = (n: number) => () =>
      withTenant(db, companyId, (tx) =>
        readDeviceDataBucketsRolledUp(tx, companyId, deviceId, range, fields.slice(0, n), BUCKET_SECONDS),
      );
    // The rollups must answer what the raw rows answer before their speed means anything.
    for (const answer of [await rolledUp(4)(), await rolledUp(4)()]) {
      const same =
        answer.length === check.length &&
        answer.every((b, i) => {
          const want = check[i]!;
          return (
            b.start.getTime() === want.start.getTime() &&
            b.count === want.count &&
            fields.every(
              (f) =>
                b.fields[f]?.min === want.fields[f]?.min &&
                b.fields[f]?.max === want.fields[f]?.max &&
                Math.abs((b.fields[f]?.sum ?? 0) - (want.fields[f]?.sum ?? 0)) < 1e-6,
            )
          );
        });
      if (!same) throw new Error('the rolled-up buckets differ from the raw buckets');
    }
    const clearRollups = () => db.query('DELETE FROM device_rollups');

    const countMs = await median(() =>
      db.query(
        `SELECT count(*) FROM device_readings
          WHERE series = (SELECT id FROM device_series WHERE device_id = $1 AND company_id = $2)
            AND created_at >= $3 AND created_at < $4`,
        [deviceId, companyId, range.from, range.to],
      ),
    );
    const rawPath = (n: number) => async () => {
      // What GET /core/data/{id} did for a year before the rollups: count the range, then bucket it raw.
      const total = await countDeviceData(db, companyId, deviceId, range);
      if (total > MAX_POINTS) {
        await readDeviceDataBuckets(db, companyId, deviceId, range, fields.slice(0, n), BUCKET_SECONDS);
      }
    };
    const raw1Ms = await median(rawPath(1));
    const raw4Ms = await median(rawPath(4));
    await rolledUp(4)();
    const rolled1Ms = await median(rolledUp(1));
    const rolled4Ms = await median(rolledUp(4));
    const cold4Ms = await median(rolledUp(4), { runs: 5, warmup: 1, before: clearRollups });
    // What the background rollup builder (packages/db/src/rollup-builder.ts) does for this device: the
    // year newest first in chunks of its default size (14 days on PostgreSQL, 7 on PGlite), the hours from
    // the raw rows and the 6-hour blocks from the hours, one transaction per chunk on the block grid
    // (backfillChunks; its pauses not timed).
    const chunkMs = (db.kind === 'pglite' ? 7 : 14) * 86_400_000;
    const chunkTimes: number[] = [];
    const buildAhead = async () => {
      chunkTimes.length = 0;
      for (const chunk of backfillChunks(Date.now(), from, chunkMs)) {
        const started = performance.now();
        await withTenant(db, companyId, (tx) => buildRollupsAhead(tx, companyId, deviceId, fields, chunk));
        chunkTimes.push(performance.now() - started);
      }
    };
    const aheadMs = await median(buildAhead, { runs: 2, warmup: 0, before: clearRollups });
    const longestChunkMs = Math.max(...chunkTimes);
    const chunks = chunkTimes.length;
    const afterAhead = async () => {
      await clearRollups();
      await buildAhead();
    };
    const firstAfterAhead4Ms = await median(rolledUp(4), { runs: 3, warmup: 1, before: afterAhead });
    // The answer after a background build is the raw answer as well.
    await afterAhead();
    const ahead = await rolledUp(4)();
    if (
      ahead.length !== check.length ||
      ahead.some(
        (b, i) =>
          b.count !== check[i]!.count ||
          fields.some(
            (f) =>
              b.fields[f]?.min !== check[i]!.fields[f]?.min ||
              b.fields[f]?.max !== check[i]!.fields[f]?.max ||
              Math.abs((b.fields[f]?.sum ?? 0) - (check[i]!.fields[f]?.sum ?? 0)) > 1e-6,
          ),
      )
    )
      throw new Error('the buckets built ahead differ from the raw buckets');

    // Insert cost of the rollup triggers (migrations 0009, 0043): batches of 1,000 rows on a second device.
    const { rows: spare } = await db.query<{ id: number }>(
      `INSERT INTO devices (company_id, name) VALUES ($1, 'Trigger bench') RETURNING id::int AS id`,
      [companyId],
    );
    const spareId = spare[0]!.id;
    // Its series with both fields (migration 0043: humidity, temperature by name), so the batches below
    // are only row inserts of prepared value arrays, as the storage writer sends them.
    await db.query(`SELECT device_series_for($1, $2, '{"temperature": 0, "humidity": 0}')`, [
      spareId,
      companyId,
    ]);
    let batch = 0;
    const insertRows = (ageMinutes: number) => async () => {
      batch += 1;
      for (let i = 0; i < 10; i += 1) {
        await db.query(
          `INSERT INTO device_readings (created_at, series, message_hash, narrow)
           SELECT now() - make_interval(mins => $3) - make_interval(secs => g / 1000.0), s.id,
                  device_message_hash($4 || ':' || g), ARRAY[(g % 90)::real, (g % 30)::real]
             FROM generate_series(1, 1000) AS g
             JOIN device_series s ON s.device_id = $1 AND s.company_id = $2`,
          [spareId, companyId, ageMinutes, `${batch}.${i}`],
        );
      }
    };
    const triggers = (on: boolean) =>
      db.query(`ALTER TABLE device_readings ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
    const insertOpts = { runs: 5, warmup: 1 };
    const liveOnMs = await median(insertRows(0), insertOpts);
    const lateOnMs = await median(insertRows(24 * 60), insertOpts);
    await triggers(false);
    const liveOffMs = await median(insertRows(0), insertOpts);
    const lateOffMs = await median(insertRows(24 * 60), insertOpts);
    await triggers(true);

    const listAllMs = await median(() => listDevices(db, companyId, {}));
    const listFilteredMs = await median(() =>
      listDevices(db, companyId, { search: 'sensor 12', state: 'ok', battery: { min: 10, max: 30 } }),
    );
    const listed = (await listDevices(db, companyId, {})).length;
    // The whole HTTP path of the device screen: session, query, presentation, schema serialisation.
    const app = buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, version: 'bench' });
    await app.ready();
    let httpMs = Number.NaN;
    let bytes = 0;
    let dataHttpMs = Number.NaN;
    let dataHttpFirstMs = Number.NaN;
    try {
      const cookie = await signIn(app, db, companyId);
      const dataUrl = `/api/v1/core/data/${deviceId}?data_fields=${fields.join(',')}&tsstart=${from}&tsend=${range.to.getTime() - 1}`;
      dataHttpMs = await median(async () => {
        const res = await app.inject({ method: 'GET', url: dataUrl, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`GET /core/data answered ${res.statusCode}`);
        const payload = res.json().payload;
        if (payload.total !== YEAR_ROWS || payload.bucket_seconds !== BUCKET_SECONDS)
          throw new Error(
            `GET /core/data answered ${payload.total} rows in ${payload.bucket_seconds} s buckets`,
          );
      });
      // The console's first chart of the device once the background builder has been through it.
      dataHttpFirstMs = await median(
        async () => {
          const res = await app.inject({ method: 'GET', url: dataUrl, headers: { cookie } });
          if (res.statusCode !== 200) throw new Error(`GET /core/data answered ${res.statusCode}`);
        },
        { runs: 3, warmup: 1, before: afterAhead },
      );
      httpMs = await median(async () => {
        const res = await app.inject({ method: 'GET', url: '/api/v1/core/devices', headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`GET /core/devices answered ${res.statusCode}`);
        bytes = res.rawPayload.length;
      });
    } finally {
      await app.close();
    }
    console.log(
      [
        `${kind} (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores): seeded ${YEAR_ROWS} rows in ${seedMs.toFixed(0)} ms; ${check.length} buckets of ${BUCKET_SECONDS / 3600} h`,
        `  baseline SELECT count(*) over the year:       ${countMs.toFixed(1)} ms (median of ${RUNS})`,
        `  downsampled from the raw rows (before), 1 field:  ${raw1Ms.toFixed(1)} ms`,
        `  downsampled from the raw rows (before), 4 fields: ${raw4Ms.toFixed(1)} ms`,
        `  rollups + raw tail (the API now), 1 field:        ${rolled1Ms.toFixed(1)} ms`,
        `  rollups + raw tail (the API now), 4 fields:       ${rolled4Ms.toFixed(1)} ms`,
        `  rollups cold (built by the read), 4 fields:       ${cold4Ms.toFixed(1)} ms (median of 5)`,
        `  background build of the year (${chunks} chunks, longest ${longestChunkMs.toFixed(1)} ms): ${aheadMs.toFixed(1)} ms (median of 2)`,
        `  first read after background build, 4 fields:     ${firstAfterAhead4Ms.toFixed(1)} ms (median of 3)`,
        `  GET /api/v1/core/data/{id}, a year, 4 fields (app.inject): ${dataHttpMs.toFixed(1)} ms`,
        `  GET /api/v1/core/data/{id}, first after background build:  ${dataHttpFirstMs.toFixed(1)} ms (median of 3)`,
        `  insert 10,000 live rows, rollup triggers on / off:     ${liveOnMs.toFixed(1)} / ${liveOffMs.toFixed(1)} ms (median of 5)`,
        `  insert 10,000 day-old rows, rollup triggers on / off:  ${lateOnMs.toFixed(1)} / ${lateOffMs.toFixed(1)} ms (median of 5)`,
        `  device list, all ${listed} devices with latest values: ${listAllMs.toFixed(1)} ms`,
        `  device list, search + state + battery filter:    ${listFilteredMs.toFixed(1)} ms`,
        `  GET /api/v1/core/devices, ${listed} devices (app.inject): ${httpMs.toFixed(1)} ms, ${(bytes / 1e6).toFixed(1)} MB`,
      ].join('\n'),
    );
    const figure = (
      name: string,
      value: number,
      extra: { baseline?: number; target?: { atMost: number } } = {},
    ) => recorder.add({ name: `${kind}: ${name}`, value, unit: 'ms', ...extra });
    // The budget: a year of one device downsampled for a chart under 100 ms; count(*) is the floor beside it.
    figure('year, 4 fields, rollups + raw tail', rolled4Ms, { baseline: countMs, target: { atMost: 100 } });
    figure('year, 1 field, rollups + raw tail', rolled1Ms, { baseline: countMs });
    figure('year, 4 fields, raw rows', raw4Ms, { baseline: countMs });
    figure('year, 4 fields, rollups cold', cold4Ms, { baseline: raw4Ms });
    figure('year, 4 fields, first after background build', firstAfterAhead4Ms, { baseline: countMs });
    figure('background build of the year', aheadMs);
    figure('GET /core/data/{id}, a year, 4 fields', dataHttpMs, { target: { atMost: 100 } });
    figure('GET /core/data/{id}, first after background build', dataHttpFirstMs);
    figure('insert 10,000 live rows, triggers on', liveOnMs, { baseline: liveOffMs });
    figure('insert 10,000 day-old rows, triggers on', lateOnMs, { baseline: lateOffMs });
    figure('device list, 10,000 devices', listAllMs);
    figure('device list, filtered', listFilteredMs);
    figure('GET /core/devices, 10,000 devices', httpMs);
  } finally {
    await drop();
  }
}

const recorder = startRun('device-data', { kinds: KINDS.join(','), runs: RUNS });
for (const kind of KINDS) await benchKind(kind.trim(), recorder);
recorder.save();
