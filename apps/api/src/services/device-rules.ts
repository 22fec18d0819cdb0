/**
 * The device-rule use cases the device routes import from here until their import lines name the files
 * below directly (kept so the routes, rewritten on another branch, did not need to change with the split).
 */
export { deleteDeviceRule } from './delete-device-rule';
export { listRulesOfDevice, presentRule } from './list-device-rules';
export { prepareDeviceRules } from './prepare-device-rules';
export { saveDeviceRules } from './save-device-rules';
