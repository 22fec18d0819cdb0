/**
 * JavaScript evaluated in every codec context before the codec's own script. It returns the entry
 * function the host keeps a handle to (it is never put on globalThis, so a codec cannot replace it).
 *
 * The host passes one JSON string and gets one JSON string back: the input object TS013 describes
 * (`{ bytes, fPort, recvTime }`) is built in here from plain values, so no host object ever enters
 * the sandbox. The intrinsics the entry relies on are captured before the codec runs, so a codec that
 * tampers with JSON or Array.prototype only breaks its own results, and the host validates those.
 *
 * A codec that throws gets its message back as an error and keeps its context. InternalError (time
 * limit, out of memory, stack overflow) is rethrown so the host disposes the context.
 */
export const BOOTSTRAP = `(function (g) {
  'use strict';
  var parse = JSON.parse;
  var stringify = JSON.stringify;
  var isArray = Array.isArray;
  var slice = Array.prototype.slice;
  var call = Function.prototype.call;
  var DateCtor = Date;
  var InternalErr = g.InternalError;
  var noop = function () {};
  // Public codecs log while they decode; there is nowhere for that to go, so it goes nowhere.
  g.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop };

  function fatal(e) {
    return typeof InternalErr === 'function' && e instanceof InternalErr;
  }
  function describe(e) {
    try {
      if (e !== null && typeof e === 'object' && typeof e.message === 'string')
        return (typeof e.name === 'string' ? e.name + ': ' : '') + e.message;
      return String(e);
    } catch (ignored) {
      return 'a value that cannot be shown';
    }
  }
  // The codec's functions, whether declared with function, var, let or const at its top level.
  function find(names) {
    for (var i = 0; i < names.length; i++) {
      var f;
      switch (names[i]) {
        case 'decodeUplink': f = typeof decodeUplink === 'function' ? decodeUplink : undefined; break;
        case 'Decoder': f = typeof Decoder === 'function' ? Decoder : undefined; break;
        case 'Decode': f = typeof Decode === 'function' ? Decode : undefined; break;
        case 'decode': f = typeof decode === 'function' ? decode : undefined; break;
        case 'encodeDownlink': f = typeof encodeDownlink === 'function' ? encodeDownlink : undefined; break;
        case 'Encoder': f = typeof Encoder === 'function' ? Encoder : undefined; break;
        case 'Encode': f = typeof Encode === 'function' ? Encode : undefined; break;
        case 'encode': f = typeof encode === 'function' ? encode : undefined; break;
      }
      if (f) return { name: names[i], fn: f };
    }
    return undefined;
  }
  // Encoders may return a typed array; JSON would turn it into an object of indexes.
  function plainBytes(b) {
    if (b !== null && typeof b === 'object' && !isArray(b) && typeof b.length === 'number')
      return call.call(slice, b);
    return b;
  }

  function run(req) {
    var found, value;
    if (req.op === 'decode') {
      var input = { bytes: req.bytes, fPort: req.fPort, recvTime: new DateCtor(req.recvTime) };
      if (req.variables) input.variables = req.variables;
      found = find(['decodeUplink', 'Decoder', 'Decode', 'decode']);
      if (!found) return { kind: 'missing' };
      if (found.name === 'decodeUplink') value = found.fn(input);
      else if (found.name === 'Decoder') value = found.fn(input.bytes, input.fPort);
      else value = found.fn(input.fPort, input.bytes, req.variables || {});
      return { kind: found.name === 'decodeUplink' ? 'ts013' : 'legacy', fn: found.name, result: value };
    }
    found = find(['encodeDownlink', 'Encoder', 'Encode', 'encode']);
    if (!found) return { kind: 'missing' };
    if (found.name === 'encodeDownlink') {
      value = found.fn({ data: req.data, fPort: req.fPort, variables: req.variables || {} });
      if (value !== null && typeof value === 'object') value.bytes = plainBytes(value.bytes);
      return { kind: 'ts013', fn: found.name, result: value };
    }
    if (found.name === 'Encoder') value = found.fn(req.data, req.fPort);
    else value = found.fn(req.fPort, req.data, req.variables || {});
    return { kind: 'legacy', fn: found.name, result: plainBytes(value) };
  }

  return function (request) {
    var out;
    try {
      out = run(parse(request));
    } catch (e) {
      if (fatal(e)) throw e;
      out = { kind: 'threw', message: describe(e) };
    }
    try {
      var text = stringify(out);
      return typeof text === 'string' ? text : stringify({ kind: 'threw', message: 'result is not JSON' });
    } catch (e) {
      if (fatal(e)) throw e;
      return stringify({ kind: 'threw', message: 'result is not JSON: ' + describe(e) });
    }
  };
})(globalThis)`;
