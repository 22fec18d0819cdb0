import { createContext, type ReactNode, useContext } from 'react';
import type { Device } from '../types/device';

/**
 * Opens a device's drawer from screens outside the devices feature (dashboard widgets, the map).
 * Features do not import each other, so the route composing the screen provides the opener.
 */
const DeviceOpenerContext = createContext<((device: Device) => void) | null>(null);

export function DeviceOpenerProvider({
  open,
  children,
}: {
  open: (device: Device) => void;
  children: ReactNode;
}) {
  return <DeviceOpenerContext.Provider value={open}>{children}</DeviceOpenerContext.Provider>;
}

/** The opener, or a no-op where none is provided. */
export function useOpenDevice(): (device: Device) => void {
  return useContext(DeviceOpenerContext) ?? (() => undefined);
}
