import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../ui/alert-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../ui/dialog';
import { Sheet, SheetContent } from '../ui/sheet';
import { EntityDrawerHeader, type EntityHeaderInfo } from './entity-drawer-header';

/**
 * The shell's overlay host (spec section 2): one dialog and two drawers that open from the right.
 * Features ask for them through useOverlay(); the host owns focus, stacking and closing.
 */
export interface DrawerRequest {
  header: EntityHeaderInfo;
  /** the drawer body; receives close() */
  render: (close: () => void) => ReactNode;
  /** wide drawer (e.g. device data, history) */
  wide?: boolean;
  testId?: string;
}

export interface DialogRequest {
  title: string;
  description?: string;
  render: (close: () => void) => ReactNode;
  testId?: string;
}

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel?: string;
  destructive?: boolean;
  testId?: string;
}

interface OverlayApi {
  /** slot 0 is the first drawer, slot 1 the second (opened from inside the first) */
  openDrawer: (request: DrawerRequest, slot?: 0 | 1) => void;
  closeDrawer: (slot?: 0 | 1) => void;
  openDialog: (request: DialogRequest) => void;
  closeDialog: () => void;
  confirm: (request: ConfirmRequest) => Promise<boolean>;
}

const OverlayContext = createContext<OverlayApi | null>(null);

export function useOverlay(): OverlayApi {
  const api = useContext(OverlayContext);
  if (!api) throw new Error('useOverlay outside OverlayHost');
  return api;
}

type DialogState =
  | { kind: 'dialog'; request: DialogRequest }
  | { kind: 'confirm'; request: ConfirmRequest; resolve: (ok: boolean) => void }
  | null;

export function OverlayHost({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [drawers, setDrawers] = useState<[DrawerRequest | null, DrawerRequest | null]>([null, null]);
  const [dialog, setDialog] = useState<DialogState>(null);
  const dialogRef = useRef<DialogState>(null);
  dialogRef.current = dialog;

  const closeDrawer = useCallback((slot: 0 | 1 = 0) => {
    // Closing the first drawer closes the second one stacked on it.
    setDrawers((prev) => (slot === 0 ? [null, null] : [prev[0], null]));
  }, []);
  const closeDialog = useCallback(() => {
    const current = dialogRef.current;
    if (current?.kind === 'confirm') current.resolve(false);
    setDialog(null);
  }, []);
  const api = useMemo<OverlayApi>(
    () => ({
      openDrawer: (request, slot = 0) =>
        setDrawers((prev) => (slot === 0 ? [request, null] : [prev[0], request])),
      closeDrawer,
      openDialog: (request) => {
        closeDialog();
        setDialog({ kind: 'dialog', request });
      },
      closeDialog,
      confirm: (request) =>
        new Promise<boolean>((resolve) => {
          closeDialog();
          setDialog({ kind: 'confirm', request, resolve });
        }),
    }),
    [closeDrawer, closeDialog],
  );

  return (
    <OverlayContext.Provider value={api}>
      {children}
      {([0, 1] as const).map((slot) => {
        const drawer = drawers[slot];
        return (
          <Sheet key={slot} open={!!drawer} onOpenChange={(open) => !open && closeDrawer(slot)}>
            {drawer && (
              <SheetContent
                wide={drawer.wide ?? false}
                data-testid={drawer.testId ?? `drawer-${slot}`}
                data-drawer-slot={slot}
                aria-describedby={undefined}
              >
                <EntityDrawerHeader info={drawer.header} />
                {drawer.render(() => closeDrawer(slot))}
              </SheetContent>
            )}
          </Sheet>
        );
      })}
      <Dialog open={dialog?.kind === 'dialog'} onOpenChange={(open) => !open && closeDialog()}>
        {dialog?.kind === 'dialog' && (
          <DialogContent data-testid={dialog.request.testId ?? 'dialog'}>
            <DialogHeader>
              <DialogTitle>{dialog.request.title}</DialogTitle>
              {dialog.request.description && (
                <DialogDescription>{dialog.request.description}</DialogDescription>
              )}
            </DialogHeader>
            {dialog.request.render(closeDialog)}
          </DialogContent>
        )}
      </Dialog>
      <AlertDialog open={dialog?.kind === 'confirm'} onOpenChange={(open) => !open && closeDialog()}>
        {dialog?.kind === 'confirm' && (
          <AlertDialogContent data-testid={dialog.request.testId ?? 'confirm-dialog'}>
            <AlertDialogHeader>
              <AlertDialogTitle>{dialog.request.title}</AlertDialogTitle>
              <AlertDialogDescription>{dialog.request.message}</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel data-testid="confirm-cancel">{t('common.cancel')}</AlertDialogCancel>
              <AlertDialogAction
                destructive={dialog.request.destructive ?? false}
                data-testid="confirm-accept"
                onClick={() => {
                  dialog.resolve(true);
                  setDialog(null);
                }}
              >
                {dialog.request.confirmLabel ?? t('common.confirm')}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        )}
      </AlertDialog>
    </OverlayContext.Provider>
  );
}
