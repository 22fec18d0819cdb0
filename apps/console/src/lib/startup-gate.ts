import { useSyncExternalStore } from 'react';

/**
 * The start-up load of the full device list (spec section 7) can wait for the first screen: on the
 * dashboard the widgets load the few devices and the map positions they show, and the full list (about
 * 8 MB for 10,000 devices) would otherwise compete with them for the server and the browser's main thread.
 * A screen holds the load while its own data loads and releases it when settled; a hold never lasts
 * longer than HOLD_LIMIT_MS, so the load always happens at start-up.
 */
export const HOLD_LIMIT_MS = 5_000;

let held = false;
let limit: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

/** Holds the full device list until releaseStartupDevices() or HOLD_LIMIT_MS. */
export function holdStartupDevices(): void {
  if (held) return;
  held = true;
  limit = setTimeout(releaseStartupDevices, HOLD_LIMIT_MS);
  notify();
}

export function releaseStartupDevices(): void {
  if (!held) return;
  held = false;
  clearTimeout(limit);
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isStartupDevicesHeld(): boolean {
  return held;
}

/** True while a screen holds the start-up device list. */
export function useStartupDevicesHeld(): boolean {
  return useSyncExternalStore(subscribe, isStartupDevicesHeld);
}
