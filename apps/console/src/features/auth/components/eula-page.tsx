import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Label } from '../../../components/ui/label';
import { isAuthenticated, useCurrentUser } from '../../../lib/auth';
import { useAcceptEula } from '../api/accept-eula';
import { useLogout } from '../api/logout';
import { EulaText } from './eula-text';

/** /eula: the licence agreement; a signed-in user who has not accepted it accepts it here. */
export function EulaPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [accepted, setAccepted] = useState(false);
  const accept = useAcceptEula();
  const logout = useLogout();
  const mustAccept = isAuthenticated(user) && user?.eula_accepted === false;
  return (
    <div className="flex flex-col gap-4" data-testid="eula-page">
      <h1 className="text-2xl font-semibold">{t('eula.title')}</h1>
      <div className="max-h-72 overflow-y-auto rounded-md border p-3 text-sm" data-testid="eula-text">
        <EulaText />
      </div>
      {mustAccept ? (
        <>
          <div className="flex items-center gap-2">
            <Checkbox
              id="accept-terms"
              checked={accepted}
              onCheckedChange={(v) => setAccepted(v === true)}
              data-testid="eula-accept-checkbox"
            />
            <Label htmlFor="accept-terms">{t('eula.accept-label')}</Label>
          </div>
          <div className="flex justify-between gap-2">
            <Button
              variant="ghost"
              onClick={() =>
                logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })
              }
              data-testid="eula-logout"
            >
              {t('shell.logout')}
            </Button>
            <Button
              disabled={!accepted || accept.isPending}
              onClick={() =>
                accept.mutate(undefined, { onSuccess: () => navigate('/dashboard', { replace: true }) })
              }
              data-testid="eula-accept"
            >
              {t('eula.accept')}
            </Button>
          </div>
        </>
      ) : (
        <Button variant="outline" onClick={() => navigate(-1)} data-testid="eula-back">
          {t('common.back')}
        </Button>
      )}
    </div>
  );
}
