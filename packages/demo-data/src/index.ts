export { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
export { type SeedResult, seedDemoData } from './seed-demo-data.js';
