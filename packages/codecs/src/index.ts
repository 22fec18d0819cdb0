export { FRAME_VERSION } from './frame/define-frame-driver.js';
export { COMMAND_CODES, COMMAND_FPORT } from './frame/encode-command.js';
export { CodecPool, type CodecPoolOptions } from './pool/codec-pool.js';
export { BUILT_IN_DRIVERS, getDriver, listDrivers } from './registry.js';
export { CODEC_FUNCTIONS } from './sandbox/bootstrap.js';
export {
  type CodecDownlinkInput,
  type CodecLoadResult,
  CodecSandbox,
  type CodecSandboxOptions,
  type CodecUplinkInput,
  DEFAULT_MAX_CONTEXTS,
  type UserCodec,
} from './sandbox/codec-sandbox.js';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox/limits.js';
export { type CodecDecodeResult, type CodecEncodeResult, flattenData } from './sandbox/read-codec-output.js';
export {
  type DataRecord,
  type DecodeInput,
  type DecodeResult,
  DownlinkError,
  type DownlinkRequest,
  type Driver,
  type DriverInfo,
  type EncodedDownlink,
} from './types.js';
