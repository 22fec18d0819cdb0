import { LogOutIcon, VenetianMaskIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import type { CurrentUser } from '../../../types/api';
import { useLeaveImpersonation } from '../api/leave-impersonation';

/** Shown while the super admin acts as a client: who is being acted as, and the way back. */
export function ImpersonationBanner({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const leave = useLeaveImpersonation();
  if (!user.impersonated) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-3 bg-amber-500 px-4 py-2 text-sm font-medium text-white"
      role="status"
      data-testid="impersonation-banner"
    >
      <VenetianMaskIcon className="size-4" />
      <span data-testid="impersonation-banner-text">
        {t('impersonation.banner', { name: user.company.name })}
      </span>
      <Button
        size="sm"
        variant="secondary"
        className="ml-auto"
        disabled={leave.isPending}
        onClick={() =>
          leave.mutate(undefined, { onSuccess: () => navigate('/admin/clients', { replace: true }) })
        }
        data-testid="impersonation-leave"
      >
        <LogOutIcon />
        {t('impersonation.leave')}
      </Button>
    </div>
  );
}
