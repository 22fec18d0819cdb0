export { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
export { type SeedResult, seedDemoData } from './seed-demo-data.js';
export { DEMO_FLEET, type DemoDeviceKind, type Reading } from './demo-fleet.js';
export { seededRandom } from './random.js';
