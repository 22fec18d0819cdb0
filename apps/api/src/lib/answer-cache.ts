/**
 * Answers kept in memory until what they were read from changes: the alarm poll (issue #29), which every
 * open console sends every few seconds and which changes far less often. An entry is the serialised body
 * under a key that holds everything the answer depends on (the acting company, the user's language, the
 * URL); whoever may read the route may read the entry, the route's guards run before it.
 *
 * Never served stale after a change that was announced: every mutating API request clears it before its
 * answer goes out (and the other API processes on `iot_auth_changed`), alarms raised or cleared elsewhere
 * arrive on `iot_alarms_changed`, companies on `iot_company_changed` (plugins/answer-cache.ts). Nothing is
 * served until those LISTENs are in effect, nor while their connection is lost. A read that began before
 * a clear is not stored (`mark`). What no one announces (a script editing the database) shows after at most
 * the entry's lifetime.
 */

import { AnnouncedCache } from './announced-cache';

/** Enough for every company's few variants of the poll; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

/** Serialised answers by key; serves nothing until its LISTENs are in effect (`resume`). */
export class AnswerCache extends AnnouncedCache<string> {
  constructor(ttlMs: number) {
    super(ttlMs, { maxEntries: MAX_ENTRIES, live: false });
  }
}
