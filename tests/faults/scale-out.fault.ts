/**
 * Fault suite (issue #28): two ingest and two rules-worker processes share the load (the uplinks go round
 * robin to the ingests, as a load balancer sends them; the rules workers split the log's partitions
 * between them), each handles a share, no uplink is evaluated twice; then one of each is killed with
 * SIGKILL and the other takes its share over: every acknowledged uplink is stored, every firing mailed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  account,
  clean,
  type FaultRig,
  type RigApp,
  startFaultRig,
  startLoad,
  waitForAcks,
} from './fault-rig.js';

let rig: FaultRig;

beforeAll(async () => {
  rig = await startFaultRig();
});

afterAll(async () => {
  await rig?.close();
});

const evaluations = (worker: RigApp) => worker.counter('iot_rule_evaluations_total');
const accepted = (ingest: RigApp) => ingest.counter('iot_uplinks_accepted_total');

it('two ingests and two rules workers share the load, and one of each takes over when the other dies', async () => {
  const ingests = [await rig.start('ingest'), await rig.start('ingest')];
  const workers = [await rig.start('rules-worker'), await rig.start('rules-worker')];
  await rig.start('notifier');
  const alive = new Set(ingests);
  const load = startLoad(rig, () => [...alive].map((ingest) => ingest.ingestUrl ?? ''));
  await waitForAcks(load, 400);

  // Both of each took a share.
  const shares = {
    ingest: await Promise.all(ingests.map(accepted)),
    rulesWorker: await Promise.all(workers.map(evaluations)),
  };
  console.log(`scale-out shares: uplinks accepted ${shares.ingest}, rules evaluated ${shares.rulesWorker}`);
  for (const share of [...shares.ingest, ...shares.rulesWorker]) expect(share).toBeGreaterThan(0);

  const [ingest, dyingIngest] = ingests as [RigApp, RigApp];
  const [worker, dyingWorker] = workers as [RigApp, RigApp];
  alive.delete(dyingIngest);
  const killedAt = Date.now();
  dyingIngest.child.kill('SIGKILL');
  dyingWorker.child.kill('SIGKILL');
  await Promise.all([dyingIngest.exited, dyingWorker.exited]);
  const before = { ingest: await accepted(ingest), worker: await evaluations(worker) };
  await waitForAcks(load, 400);
  await load.stop();

  // The survivor evaluates the dead worker's partitions too once its leases ran out: nothing is left
  // behind in the log, every "above" uplink fired, none twice.
  const result = await account(rig, load);
  const after = { ingest: await accepted(ingest), worker: await evaluations(worker) };
  console.log(
    `scale-out after the kill: ${Date.now() - killedAt} ms; the survivors accepted ${after.ingest - before.ingest} and evaluated ${after.worker - before.worker} more; ${result.acknowledged} uplinks acknowledged, ${result.firings} firings, ${result.mails} mails`,
  );
  expect(result).toEqual(clean(result));
  expect(after.worker - before.worker).toBeGreaterThanOrEqual(after.ingest - before.ingest);
});
