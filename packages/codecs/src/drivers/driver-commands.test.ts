import { ACTION_COMMAND_IDS } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { COMMAND_CODES, DownlinkError, getDriver, listDrivers } from '../index.js';
import { hex } from './drivers-test-setup';

const COMMANDS: { id: string; command: string; params: Record<string, unknown>; frame: string }[] = [
  ...['nbiot_button', 'srd_button'].flatMap((id) => [
    { id, command: 'reset_counter', params: { counter: 1 }, frame: '010101' },
    { id, command: 'reboot', params: {}, frame: '0107' },
    { id, command: 'request_uplink', params: {}, frame: '0108' },
    { id, command: 'set_reporting_interval', params: { minutes: 1440 }, frame: '010905A0' },
  ]),
  { id: 'srd_gateway', command: 'switch_digital_output', params: { output: 4, on: true }, frame: '01020401' },
  {
    id: 'srd_gateway',
    command: 'switch_digital_output',
    params: { output: 1, on: false },
    frame: '01020100',
  },
  {
    id: 'srd_gateway',
    command: 'switch_digital_output_timed',
    params: { output: 2, seconds: 86_400 },
    frame: '01030200015180',
  },
  { id: 'srd_gateway', command: 'switch_relay_output', params: { output: 2, on: true }, frame: '01040201' },
  {
    id: 'srd_gateway',
    command: 'switch_relay_output_timed',
    params: { output: 1, seconds: 90 },
    frame: '0105010000005A',
  },
  { id: 'srd_gateway', command: 'reboot', params: {}, frame: '0107' },
  { id: 'srd_gateway', command: 'request_uplink', params: {}, frame: '0108' },
  { id: 'srd_gateway', command: 'set_reporting_interval', params: { minutes: 60 }, frame: '0109003C' },
  {
    id: 'nbiot_soil_sensor',
    command: 'switch_solenoid_valve',
    params: { valve: 3, on: true },
    frame: '01060301',
  },
  {
    id: 'nbiot_soil_sensor',
    command: 'switch_solenoid_valve',
    params: { valve: 1, on: false },
    frame: '01060100',
  },
  ...['nbiot_soil_sensor', 'nbiot_frost_sensor', 'nbiot_distance_sensor', 'nbiot_weatherstation'].flatMap(
    (id) => [
      { id, command: 'reboot', params: {}, frame: '0107' },
      { id, command: 'request_uplink', params: {}, frame: '0108' },
      // One week, the catalogue's longest interval.
      { id, command: 'set_reporting_interval', params: { minutes: 10_080 }, frame: '01092760' },
    ],
  ),
];

describe('downlink commands', () => {
  it.each(COMMANDS)('$id $command $params', ({ id, command, params, frame }) => {
    expect(getDriver(id)?.encodeDownlink?.({ command, params })).toEqual({ bytes: hex(frame), fPort: 10 });
  });

  it('covers every command each driver lists, and every catalogue command somewhere', () => {
    for (const driver of listDrivers())
      expect(new Set(COMMANDS.filter((c) => c.id === driver.id).map((c) => c.command))).toEqual(
        new Set(driver.commands),
      );
    expect(new Set(listDrivers().flatMap((d) => d.commands))).toEqual(new Set(ACTION_COMMAND_IDS));
    expect(Object.keys(COMMAND_CODES)).toEqual(ACTION_COMMAND_IDS);
  });

  const BAD: {
    id: string;
    command: string;
    params: Record<string, unknown>;
    reason: string;
    parameter: string;
  }[] = [
    {
      id: 'nbiot_frost_sensor',
      command: 'switch_relay_output',
      params: { output: 1, on: true },
      reason: 'unsupported_command',
      parameter: 'command',
    },
    {
      id: 'nbiot_button',
      command: 'self_destruct',
      params: {},
      reason: 'unsupported_command',
      parameter: 'command',
    },
    // The button has one counter; the catalogue allows 1..4.
    {
      id: 'nbiot_button',
      command: 'reset_counter',
      params: { counter: 2 },
      reason: 'invalid_parameter',
      parameter: 'counter',
    },
    {
      id: 'srd_gateway',
      command: 'switch_relay_output',
      params: { output: 3, on: true },
      reason: 'invalid_parameter',
      parameter: 'output',
    },
    {
      id: 'srd_gateway',
      command: 'switch_digital_output',
      params: { output: 1, on: 'yes' },
      reason: 'invalid_parameter',
      parameter: 'on',
    },
    {
      id: 'srd_gateway',
      command: 'switch_digital_output_timed',
      params: { output: 1, seconds: 86_401 },
      reason: 'invalid_parameter',
      parameter: 'seconds',
    },
    {
      id: 'nbiot_soil_sensor',
      command: 'switch_solenoid_valve',
      params: { valve: 5, on: true },
      reason: 'invalid_parameter',
      parameter: 'valve',
    },
    {
      id: 'nbiot_weatherstation',
      command: 'set_reporting_interval',
      params: { minutes: 0 },
      reason: 'invalid_parameter',
      parameter: 'minutes',
    },
    {
      id: 'nbiot_weatherstation',
      command: 'set_reporting_interval',
      params: { minutes: 1.5 },
      reason: 'invalid_parameter',
      parameter: 'minutes',
    },
  ];
  it.each(BAD)('$id rejects $command $params', ({ id, command, params, reason, parameter }) => {
    let caught: unknown;
    try {
      getDriver(id)?.encodeDownlink?.({ command, params });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DownlinkError);
    expect(caught).toMatchObject({ reason, parameter });
  });

  it('a params object cannot smuggle in another command', () => {
    expect(
      getDriver('nbiot_button')?.encodeDownlink?.({
        command: 'reboot',
        params: { command: 'reset_counter' },
      }),
    ).toEqual({
      bytes: hex('0107'),
      fPort: 10,
    });
  });
});
