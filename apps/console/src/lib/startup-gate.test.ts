import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HOLD_LIMIT_MS,
  holdStartupDevices,
  isStartupDevicesHeld,
  releaseStartupDevices,
} from './startup-gate';

describe('startup gate', () => {
  afterEach(() => {
    releaseStartupDevices();
    vi.useRealTimers();
  });

  it('holds the start-up device list until released', () => {
    expect(isStartupDevicesHeld()).toBe(false);
    holdStartupDevices();
    expect(isStartupDevicesHeld()).toBe(true);
    releaseStartupDevices();
    expect(isStartupDevicesHeld()).toBe(false);
  });

  it('never holds longer than the limit', () => {
    vi.useFakeTimers();
    holdStartupDevices();
    vi.advanceTimersByTime(HOLD_LIMIT_MS - 1);
    expect(isStartupDevicesHeld()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isStartupDevicesHeld()).toBe(false);
  });
});
