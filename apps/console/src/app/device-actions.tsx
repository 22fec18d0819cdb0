import type { DeviceAction } from '../components/device-actions';
import { RULES_DEVICE_ACTIONS } from '../features/rules/device-actions';
import { WATER_DEVICE_ACTIONS } from '../features/water/device-actions';

/** Views of a device owned by other features, shown as buttons in the device drawer. */
export const DEVICE_ACTIONS: readonly DeviceAction[] = [...RULES_DEVICE_ACTIONS, ...WATER_DEVICE_ACTIONS];
