/**
 * Fault suite (issue #28): under a steady load of uplinks whose rules mail, the rules worker and then the
 * notifier are killed with SIGKILL and started again. No acknowledged uplink is lost, every firing's mail
 * reaches the SMTP server (none lost), no uplink fires twice. A mail is sent twice only when the kill
 * fell between the SMTP server's 250 and the notifier's record of it (then with the same Message-ID).
 * Recovery times are printed.
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

/** Kills `app` with SIGKILL once the load is flowing, starts it again; prints how long it was gone. */
async function killAndRestart(app: RigApp, start: () => Promise<RigApp>): Promise<RigApp> {
  const before = rig.smtp.received.length;
  const killedAt = Date.now();
  app.child.kill('SIGKILL');
  await app.exited;
  const next = await start();
  const ready = Date.now() - killedAt;
  // Mails flowing again: a firing after the restart reached the SMTP server.
  const at = Date.now();
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      if (rig.smtp.received.length > before + 20) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - at > 90_000) {
        clearInterval(poll);
        reject(new Error(`no mails after ${app.name} was restarted:\n${next.output()}`));
      }
    }, 200);
  });
  console.log(
    `${app.name} kill -9: ready again ${ready} ms after the kill, mails flowing ${Date.now() - killedAt} ms after`,
  );
  return next;
}

it('loses no uplink or mail when the rules worker and the notifier are killed', async () => {
  const ingest = await rig.start('ingest');
  const rulesWorker = await rig.start('rules-worker');
  const notifier = await rig.start('notifier');
  const load = startLoad(rig, () => [ingest.ingestUrl ?? '']);
  await waitForAcks(load, 300);
  await killAndRestart(rulesWorker, () => rig.start('rules-worker'));
  await waitForAcks(load, 300);
  await killAndRestart(notifier, () => rig.start('notifier'));
  await waitForAcks(load, 200);
  await load.stop();

  const result = await account(rig, load);
  console.log(
    `rules worker and notifier kill -9: ${result.acknowledged} uplinks acknowledged, ${result.firings} firings, ${result.mails} mails`,
  );
  // The one window no process can close: killed between the SMTP server's 250 and recording the send,
  // the notifier sends again on retry (the same Message-ID). At most the mails of that moment.
  expect(result).toEqual(clean(result, { resentAtMost: 3 }));
  if (result.mailedTwice.length > 0)
    console.log(`sent again after the notifier's kill: ${result.mailedTwice}`);
  expect(result.firings).toBeGreaterThan(200);
});
