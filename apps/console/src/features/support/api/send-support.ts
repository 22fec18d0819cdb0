import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface SupportInput {
  subject: string;
  message: string;
}

/** POST /core/support: the support contact form. */
export function sendSupport(input: SupportInput): Promise<unknown> {
  return api<unknown>('/core/support', { method: 'POST', body: input });
}

export function useSendSupport() {
  return useMutation({ mutationFn: sendSupport });
}
