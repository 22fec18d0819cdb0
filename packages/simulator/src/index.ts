export {
  applyDownlink,
  buildUplink,
  canSimulate,
  type DeviceProfile,
  profileOf,
  type SimDevice,
  type Uplink,
} from './build-uplink.js';
export { type EncodedFrame, encodeFrame, FRAME_LAYOUTS } from './encode-frame.js';
export {
  ApiError,
  type FetchCredentialsOptions,
  fetchDeviceCredentials,
} from './fetch-device-credentials.js';
export {
  runSimulation,
  type SimulationOptions,
  type SimulationStats,
  type Transport,
} from './run-simulation.js';
export { type DemoFleetOptions, startDemoFleet } from './start-demo-fleet.js';
