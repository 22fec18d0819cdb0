import { type ActionCommand, type ActionCommandId, parseActionCommand } from '@iot/domain';
import { DownlinkError, type DownlinkRequest, type EncodedDownlink } from '../types.js';

/**
 * The downlink command frame shared by all built-in drivers (README "Downlink commands"):
 * `[0x01 version][command code][parameters, big-endian]`, sent on LoRaWAN port 10.
 */
export const COMMAND_FRAME_VERSION = 0x01;
export const COMMAND_FPORT = 10;

export const COMMAND_CODES: Record<ActionCommandId, number> = {
  reset_counter: 0x01,
  switch_digital_output: 0x02,
  switch_digital_output_timed: 0x03,
  switch_relay_output: 0x04,
  switch_relay_output_timed: 0x05,
  switch_solenoid_valve: 0x06,
  reboot: 0x07,
  request_uplink: 0x08,
  set_reporting_interval: 0x09,
};

/** A command a driver supports; `max` narrows the catalogue's upper bound for the numbered output. */
export interface CommandSupport {
  readonly command: ActionCommandId;
  /** Highest counter / output / valve number the device has (the catalogue allows up to 4). */
  readonly max?: number;
}

function parametersOf(command: ActionCommand): number[] {
  switch (command.command) {
    case 'reset_counter':
      return [command.counter];
    case 'switch_digital_output':
    case 'switch_relay_output':
      return [command.output, command.on ? 1 : 0];
    case 'switch_solenoid_valve':
      return [command.valve, command.on ? 1 : 0];
    case 'switch_digital_output_timed':
    case 'switch_relay_output_timed':
      // Seconds as uint32 big-endian: the catalogue allows up to 86 400, more than 16 bits hold.
      return [
        command.output,
        (command.seconds >>> 24) & 0xff,
        (command.seconds >>> 16) & 0xff,
        (command.seconds >>> 8) & 0xff,
        command.seconds & 0xff,
      ];
    case 'set_reporting_interval':
      return [(command.minutes >>> 8) & 0xff, command.minutes & 0xff];
    case 'reboot':
    case 'request_uplink':
      return [];
  }
}

function numberedTarget(command: ActionCommand): [string, number] | undefined {
  if (command.command === 'reset_counter') return ['counter', command.counter];
  if (command.command === 'switch_solenoid_valve') return ['valve', command.valve];
  if ('output' in command) return ['output', command.output];
  return undefined;
}

/** Validates the request against the domain's command catalogue and the device, then builds the frame. */
export function encodeCommand(
  supported: readonly CommandSupport[],
  request: DownlinkRequest,
  driverId: string,
): EncodedDownlink {
  const support = supported.find((s) => s.command === request.command);
  if (support === undefined)
    throw new DownlinkError(
      'unsupported_command',
      'command',
      `${driverId} does not support the command ${JSON.stringify(request.command)}`,
    );
  const parsed = parseActionCommand({ ...request.params, command: request.command });
  if (!parsed.ok)
    throw new DownlinkError(
      'invalid_parameter',
      parsed.parameter,
      `${request.command}: parameter ${parsed.parameter} is missing or out of range`,
    );
  const target = numberedTarget(parsed.value);
  if (target !== undefined && support.max !== undefined && target[1] > support.max)
    throw new DownlinkError(
      'invalid_parameter',
      target[0],
      `${request.command}: ${driverId} has ${target[0]} 1..${support.max}, not ${target[1]}`,
    );
  const bytes = Uint8Array.from([
    COMMAND_FRAME_VERSION,
    COMMAND_CODES[parsed.value.command],
    ...parametersOf(parsed.value),
  ]);
  return { bytes, fPort: COMMAND_FPORT };
}
