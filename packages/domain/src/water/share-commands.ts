import type { ActionCommandId } from '../constants/action-commands';

/**
 * What a water association may send to a device a member shares with control (issue #26): the spec's
 * valve and pump commands, switching a solenoid valve or the output a pump hangs on, and nothing else (no
 * counter reset, reboot or reporting interval: the device stays its owner's).
 */
const WATER_SHARE_COMMANDS: readonly ActionCommandId[] = [
  'switch_solenoid_valve',
  'switch_relay_output',
  'switch_relay_output_timed',
  'switch_digital_output',
  'switch_digital_output_timed',
];

export function isWaterShareCommand(command: string): boolean {
  return (WATER_SHARE_COMMANDS as readonly string[]).includes(command);
}
