/**
 * The API's own codec sandbox, for loading a codec when it is saved and for the codec test routes.
 * Ingest keeps its own (apps/ingest/src/decode): the two processes may be apart, and a codec a user
 * tests here never shares a context with the one decoding live uplinks.
 */
import { CodecSandbox } from '@iot/codecs';

let sandbox: Promise<CodecSandbox> | undefined;

export function apiCodecSandbox(): Promise<CodecSandbox> {
  if (sandbox === undefined) {
    const creating = CodecSandbox.create({ maxContexts: 16 });
    // A failed start is not cached: the next request tries again.
    creating.catch(() => {
      if (sandbox === creating) sandbox = undefined;
    });
    sandbox = creating;
  }
  return sandbox;
}
