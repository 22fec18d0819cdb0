/**
 * Keeps the answer caches (`deps.alarmCache`, `deps.deviceListCache`; lib/answer-cache.ts) true to the
 * database. The alarm poll is cleared by every mutating request of this process before its answer goes out,
 * by the other API processes' announcement of theirs (`iot_auth_changed`, sent by the session plugin), and by
 * alarms raised or cleared outside the API (`iot_alarms_changed`). The device lists follow the database
 * alone: every write to a company's devices, groups or latest values, whoever makes it, is announced on
 * `iot_device_list_changed` with the company's id (migration 0042's triggers) and drops that company's lists
 * only, at most once per DEVICE_LIST_REFRESH_MS under a stream of announcements (a reporting fleet announces
 * every storage-writer batch; lib/scope-throttle.ts); a mutating request also drops its own company's at once, so its next read shows what it changed
 * before the announcement arrives. Other requests (a sign-in, another company's change) keep them. The map
 * lists without latest values (`deps.deviceMapCache`) follow `iot_device_map_changed` instead (migration
 * 0044), which a fleet's latest values announce only when they move a device or turn it on- or offline.
 * The dashboards answers (`deps.dashboardsCache`) go per company with `iot_dashboards_changed` (migration
 * 0047), sent for every change to a company's dashboards or widgets.
 * The closed chart buckets (`deps.closedBuckets`) go per device with `iot_rollups_changed`, which
 * migrations 0045 and 0046 send for every late row and deleted rollup. Company changes (`iot_company_changed`) clear them all. Active only once those LISTENs are in effect, and only where
 * the other processes announce their changes: with the session cache on (SESSION_CACHE_SECONDS > 0), whose
 * announcement it shares.
 */
import {
  ALARMS_CHANGED_CHANNEL,
  DASHBOARDS_CHANGED_CHANNEL,
  DEVICE_LIST_CHANGED_CHANNEL,
  DEVICE_MAP_CHANGED_CHANNEL,
  ROLLUPS_CHANGED_CHANNEL,
  type Unlisten,
} from '@iot/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_CHANGED_CHANNEL } from '../lib/auth-cache';
import { ScopeThrottle } from '../lib/scope-throttle';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function answerCachePlugin(app: FastifyInstance): Promise<void> {
  const { db, authCache, alarmCache, deviceListCache, deviceMapCache, dashboardsCache, closedBuckets } =
    app.deps;
  const caches = [alarmCache, deviceListCache, deviceMapCache, dashboardsCache, closedBuckets];
  const clearAll = () => {
    for (const cache of caches) cache.clear();
  };
  const unlisten: Unlisten[] = [];
  const announcedListChange = new ScopeThrottle(app.deps.session.listRefreshMs, (company) =>
    deviceListCache.clearScope(company),
  );
  const announcedMapChange = new ScopeThrottle(app.deps.session.listRefreshMs, (company) =>
    deviceMapCache.clearScope(company),
  );
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!MUTATING.has(request.method)) return payload;
    alarmCache.clear();
    const company = request.auth?.companyId;
    if (company !== undefined) {
      deviceListCache.clearScope(String(company));
      deviceMapCache.clearScope(String(company));
      dashboardsCache.clearScope(String(company));
    }
    return payload;
  });
  app.addHook('onReady', async () => {
    if (!db.listen || app.deps.session.cacheSeconds === 0) return;
    // One connection carries every LISTEN: losing it suspends the caches, a reconnect resumes them.
    const resume = () => {
      for (const cache of caches) cache.resume();
    };
    const suspend = () => {
      for (const cache of caches) cache.suspend();
    };
    unlisten.push(await db.listen(ALARMS_CHANGED_CHANNEL, () => alarmCache.clear(), resume, suspend));
    unlisten.push(
      await db.listen(DEVICE_LIST_CHANGED_CHANNEL, (company) => announcedListChange.request(company)),
    );
    unlisten.push(
      await db.listen(DEVICE_MAP_CHANGED_CHANNEL, (company) => announcedMapChange.request(company)),
    );
    // Dashboards change when someone edits them: each announcement drops the company's answer at once.
    unlisten.push(
      await db.listen(DASHBOARDS_CHANGED_CHANNEL, (company) => dashboardsCache.clearScope(company)),
    );
    unlisten.push(await db.listen(ROLLUPS_CHANGED_CHANNEL, (device) => closedBuckets.clearScope(device)));
    unlisten.push(await db.listen('iot_company_changed', clearAll));
    if (db.kind === 'postgres')
      unlisten.push(
        await db.listen(
          AUTH_CHANGED_CHANNEL,
          // This process cleared its own when it answered; its own announcement, heard later, would also
          // drop what was read since (the session plugin's rule).
          (from) => from !== authCache.id && alarmCache.clear(),
        ),
      );
    resume();
  });
  app.addHook('onClose', async () => {
    for (const cache of caches) cache.suspend();
    announcedListChange.close();
    announcedMapChange.close();
    await Promise.all(unlisten.map((stop) => stop()));
  });
}

export default fp(answerCachePlugin, { name: 'iot-answer-cache', dependencies: ['iot-session'] });
