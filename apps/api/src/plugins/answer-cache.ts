/**
 * Keeps `deps.alarmCache` (lib/answer-cache.ts) true to the database: cleared by every mutating request of
 * this process before its answer goes out, by the other API processes' announcement of theirs
 * (`iot_auth_changed`, sent by the session plugin), by alarms raised or cleared outside the API
 * (`iot_alarms_changed`) and by company changes (`iot_company_changed`). Active only once those LISTENs are
 * in effect, and only where the other processes announce their changes: with the session cache on
 * (SESSION_CACHE_SECONDS > 0), whose announcement it shares.
 */
import { ALARMS_CHANGED_CHANNEL, type Unlisten } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_CHANGED_CHANNEL } from '../lib/auth-cache';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function answerCachePlugin(app: FastifyInstance): Promise<void> {
  const { db, alarmCache } = app.deps;
  const unlisten: Unlisten[] = [];
  app.addHook('onSend', async (request, _reply, payload) => {
    if (MUTATING.has(request.method)) alarmCache.clear();
    return payload;
  });
  app.addHook('onReady', async () => {
    if (!db.listen || app.deps.session.cacheSeconds === 0) return;
    const clear = () => alarmCache.clear();
    // One connection carries every LISTEN: losing it suspends the cache, a reconnect resumes it.
    const resume = () => alarmCache.resume();
    const suspend = () => alarmCache.suspend();
    unlisten.push(await db.listen(ALARMS_CHANGED_CHANNEL, clear, resume, suspend));
    unlisten.push(await db.listen('iot_company_changed', clear));
    if (db.kind === 'postgres') unlisten.push(await db.listen(AUTH_CHANGED_CHANNEL, clear));
    alarmCache.resume();
  });
  app.addHook('onClose', async () => {
    alarmCache.suspend();
    await Promise.all(unlisten.map((stop) => stop()));
  });
}

export default fp(answerCachePlugin, { name: 'iot-answer-cache', dependencies: ['iot-session'] });
