export { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
export {
  applyCoolingDownlink,
  COLD_ROOM_ALERT_EMAIL,
  COLD_ROOM_ALERT_PHONE,
  COLD_ROOM_COOLING_COMMAND,
  COLD_ROOM_COOLING_KIND,
  COLD_ROOM_COOLING_NAME,
  COLD_ROOM_COOLING_RELAY,
  COLD_ROOM_KIND,
  COLD_ROOM_LIMIT,
  COLD_ROOM_NAME,
  COLD_ROOM_RULE_NAME,
} from './demo-cold-room.js';
export { DEMO_FLEET, type DemoDeviceKind, type Reading } from './demo-fleet.js';
export { seededRandom } from './random.js';
export { type SeedResult, seedDemoData } from './seed-demo-data.js';
