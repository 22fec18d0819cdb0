/**
 * The API's own codec pool, for loading a codec when it is saved and for the codec test routes: worker
 * threads (issue #28), so a codec under test that loops holds a thread of this pool, never the API's event
 * loop. Ingest keeps its own (apps/ingest/src/decode): the two processes may be apart, and a codec a user
 * tests here never shares a context with the one decoding live uplinks. Threads start on the first use.
 */
import { CodecPool } from '@iot/codecs';

let pool: CodecPool | undefined;

export function apiCodecPool(): CodecPool {
  pool ??= new CodecPool({ workers: 2, maxContexts: 16 });
  return pool;
}
