import { TOAST_LIFE_MS } from '@iot/domain';
import { toast } from 'sonner';

/**
 * Toasts (spec sections 3 and 8): top right, closable, paused on hover (sonner pauses timers while
 * the pointer is over the stack), closing after their life. Each carries data-testid="toast-<severity>".
 */
export function notifyError(summary: string, detail?: string, life: number = TOAST_LIFE_MS): void {
  toast.error(summary, { description: detail, duration: life, closeButton: true, testId: 'toast-error' });
}

export function notifySuccess(summary: string, detail?: string, life = 5000): void {
  toast.success(summary, { description: detail, duration: life, closeButton: true, testId: 'toast-success' });
}

export function notifyInfo(summary: string, detail?: string, life = 5000): void {
  toast.info(summary, { description: detail, duration: life, closeButton: true, testId: 'toast-info' });
}
