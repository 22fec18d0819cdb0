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
  var hasOwn = Object.prototype.hasOwnProperty;
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
  // The line of the codec's script a thrown error points at, for the codec editor to mark.
  function lineOf(e) {
    try {
      var m = e !== null && typeof e === 'object' && typeof e.stack === 'string' ? /codec\\.js:(\\d+)/.exec(e.stack) : null;
      return m ? Number(m[1]) : undefined;
    } catch (ignored) {
      return undefined;
    }
  }
  // The codec's functions as its top level, run afresh for this call, defined them (see CODEC_SUFFIX).
  function find(fns, names) {
    for (var i = 0; i < names.length; i++) if (typeof fns[names[i]] === 'function') return { name: names[i], fn: fns[names[i]] };
    return undefined;
  }
  // Encoders may return a typed array; JSON would turn it into an object of indexes.
  function plainBytes(b) {
    if (b !== null && typeof b === 'object' && !isArray(b) && typeof b.length === 'number')
      return call.call(slice, b);
    return b;
  }

  function run(req, factory) {
    var found, value;
    // Every call runs the codec's top level again, so state it keeps there (var pointer = 0) starts
    // afresh, as it would in a process that loads the codec per uplink.
    var fns = factory.call(g);
    if (req.op === 'probe') {
      var names = [];
      // Not names.push: the codec's top level has just run and may have replaced Array.prototype.push.
      for (var key in fns) if (call.call(hasOwn, fns, key) && typeof fns[key] === 'function') names[names.length] = key;
      return { kind: 'probe', names: names };
    }
    if (req.op === 'decode' || req.op === 'decodeDownlink') {
      var input = { bytes: req.bytes, fPort: req.fPort, recvTime: new DateCtor(req.recvTime) };
      if (req.variables) input.variables = req.variables;
      if (req.op === 'decodeDownlink') {
        found = find(fns, ['decodeDownlink']);
        if (!found) return { kind: 'missing' };
        return { kind: 'ts013', fn: found.name, result: found.fn({ bytes: req.bytes, fPort: req.fPort }) };
      }
      found = find(fns, ['decodeUplink', 'Decoder', 'Decode', 'decode']);
      if (!found) return { kind: 'missing' };
      if (found.name === 'decodeUplink') value = found.fn(input);
      else if (found.name === 'Decoder') value = found.fn(input.bytes, input.fPort);
      else value = found.fn(input.fPort, input.bytes, req.variables || {});
      return { kind: found.name === 'decodeUplink' ? 'ts013' : 'legacy', fn: found.name, result: value };
    }
    found = find(fns, ['encodeDownlink', 'Encoder', 'Encode', 'encode']);
    if (!found) return { kind: 'missing' };
    if (found.name === 'encodeDownlink') {
      // The input as the caller gave it, extra fields included (Ellenex codecs read input.command).
      value = found.fn(req.input);
      if (value !== null && typeof value === 'object') value.bytes = plainBytes(value.bytes);
      return { kind: 'ts013', fn: found.name, result: value };
    }
    if (found.name === 'Encoder') value = found.fn(req.input.data, req.input.fPort);
    else value = found.fn(req.input.fPort, req.input.data, req.input.variables || {});
    return { kind: 'legacy', fn: found.name, result: plainBytes(value) };
  }

  return function (request, factory) {
    var out;
    try {
      out = run(parse(request), factory);
    } catch (e) {
      if (fatal(e)) throw e;
      out = { kind: 'threw', message: describe(e), line: lineOf(e) };
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

/** The entry points a codec may define, TS013's first, then the legacy ones. */
export const CODEC_FUNCTIONS = [
  'decodeUplink',
  'encodeDownlink',
  'decodeDownlink',
  'Decoder',
  'Decode',
  'decode',
  'Encoder',
  'Encode',
  'encode',
] as const;

/**
 * The codec's script is loaded as the body of a factory function: parsed once, its top level run
 * per call. The prefix has no line break, so the line numbers of errors are the script's own.
 */
export const CODEC_PREFIX = '(function () {';
export const CODEC_SUFFIX = `\n;return {${CODEC_FUNCTIONS.map(
  (name) => `${name}: typeof ${name} === 'function' ? ${name} : undefined`,
).join(', ')}};\n})`;
