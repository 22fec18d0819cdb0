import { createContext, type ReactNode, useContext } from 'react';
import type { Device } from '../types/device';
import type { TranslationKey } from '../types/translation-key';

/**
 * Extra views of a device that other features own (rules, virtual fields, sensor checks, commands).
 * Features do not import each other, so the app registers them here and the device drawer shows one
 * button per entry (`device-action-<id>`), opening the body in the second drawer or in the dialog.
 */
export interface DeviceAction {
  id: string;
  labelKey: TranslationKey;
  icon: React.ElementType;
  /** only ROLE_ADMIN and ROLE_MAINUSER see the button */
  editorsOnly?: boolean;
  as?: 'drawer' | 'dialog';
  wide?: boolean;
  render: (device: Device, close: () => void) => ReactNode;
}

const DeviceActionsContext = createContext<readonly DeviceAction[]>([]);

export function DeviceActionsProvider({
  actions,
  children,
}: {
  actions: readonly DeviceAction[];
  children: ReactNode;
}) {
  return <DeviceActionsContext.Provider value={actions}>{children}</DeviceActionsContext.Provider>;
}

export function useDeviceActions(): readonly DeviceAction[] {
  return useContext(DeviceActionsContext);
}
