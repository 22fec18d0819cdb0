/**
 * Remote-control commands a rule action or the console can send to a device (spec section 3).
 * Each entry names its parameters with their bounds so the console can build the form and the
 * API and notifier can check a command with the same description.
 */
export interface CommandParameter {
  readonly name: string;
  readonly kind: 'integer' | 'boolean';
  readonly min?: number;
  readonly max?: number;
  readonly unit?: string;
}

export interface ActionCommandDefinition {
  readonly id: string;
  readonly parameters: readonly CommandParameter[];
}

// Digital inputs/outputs and counters exist 1..4, relay outputs 1..2, valves up to 4 (spec sections 3, 9).
const digitalOutput = { name: 'output', kind: 'integer', min: 1, max: 4 } as const;
const relayOutput = { name: 'output', kind: 'integer', min: 1, max: 2 } as const;
const switchState = { name: 'on', kind: 'boolean' } as const;
// A timed switch longer than a day is a mistake rather than an intent; the spec gives no upper bound.
const seconds = { name: 'seconds', kind: 'integer', min: 1, max: 86_400, unit: 's' } as const;

export const ACTION_COMMANDS = {
  reset_counter: { id: 'reset_counter', parameters: [{ name: 'counter', kind: 'integer', min: 1, max: 4 }] },
  switch_digital_output: { id: 'switch_digital_output', parameters: [digitalOutput, switchState] },
  switch_digital_output_timed: { id: 'switch_digital_output_timed', parameters: [digitalOutput, seconds] },
  switch_relay_output: { id: 'switch_relay_output', parameters: [relayOutput, switchState] },
  switch_relay_output_timed: { id: 'switch_relay_output_timed', parameters: [relayOutput, seconds] },
  switch_solenoid_valve: {
    id: 'switch_solenoid_valve',
    parameters: [{ name: 'valve', kind: 'integer', min: 1, max: 4 }, switchState],
  },
  reboot: { id: 'reboot', parameters: [] },
  request_uplink: { id: 'request_uplink', parameters: [] },
  // One week as the longest interval: longer and a device looks lost (stale after 8 hours anyway).
  set_reporting_interval: {
    id: 'set_reporting_interval',
    parameters: [{ name: 'minutes', kind: 'integer', min: 1, max: 10_080, unit: 'min' }],
  },
} as const satisfies Record<string, ActionCommandDefinition>;

export type ActionCommandId = keyof typeof ACTION_COMMANDS;
export const ACTION_COMMAND_IDS = Object.keys(ACTION_COMMANDS) as ActionCommandId[];

/** A concrete command with its arguments, as stored on a remote_control action and sent as a downlink. */
export type ActionCommand =
  | { command: 'reset_counter'; counter: number }
  | { command: 'switch_digital_output'; output: number; on: boolean }
  | { command: 'switch_digital_output_timed'; output: number; seconds: number }
  | { command: 'switch_relay_output'; output: number; on: boolean }
  | { command: 'switch_relay_output_timed'; output: number; seconds: number }
  | { command: 'switch_solenoid_valve'; valve: number; on: boolean }
  | { command: 'reboot' }
  | { command: 'request_uplink' }
  | { command: 'set_reporting_interval'; minutes: number };

/**
 * Checks an untrusted command object against the catalogue. Returns the typed command, or the
 * name of the first bad parameter (`command` when the command itself is unknown).
 */
export function parseActionCommand(
  input: unknown,
): { ok: true; value: ActionCommand } | { ok: false; parameter: string } {
  if (typeof input !== 'object' || input === null) return { ok: false, parameter: 'command' };
  const record = input as Record<string, unknown>;
  const id = record.command;
  if (typeof id !== 'string' || !Object.hasOwn(ACTION_COMMANDS, id))
    return { ok: false, parameter: 'command' };
  const definition: ActionCommandDefinition = ACTION_COMMANDS[id as ActionCommandId];
  const value: Record<string, unknown> = { command: id };
  for (const parameter of definition.parameters) {
    const raw = record[parameter.name];
    if (parameter.kind === 'boolean') {
      if (typeof raw !== 'boolean') return { ok: false, parameter: parameter.name };
    } else if (
      typeof raw !== 'number' ||
      !Number.isInteger(raw) ||
      (parameter.min !== undefined && raw < parameter.min) ||
      (parameter.max !== undefined && raw > parameter.max)
    ) {
      return { ok: false, parameter: parameter.name };
    }
    value[parameter.name] = raw;
  }
  return { ok: true, value: value as ActionCommand };
}
