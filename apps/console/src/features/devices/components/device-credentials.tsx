import { CopyIcon, KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { notifySuccess } from '../../../lib/notify';
import type { DeviceDetails } from '../../../types/device';
import { useRotateCredentials } from '../api/rotate-credentials';

/**
 * The device token in the device drawer (where the README sends people): "Issue new token" shows a freshly
 * issued token once, with a copy button; it cannot be read again.
 */
export function DeviceCredentials({ device }: { device: DeviceDetails }) {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const rotate = useRotateCredentials();
  const [token, setToken] = useState<string | null>(null);
  if (!device.credentials) return null;
  const confirmRotate = async () => {
    const ok = await overlay.confirm({
      title: t('devices.credentials.rotate-title'),
      message: t('devices.credentials.rotate-message', { name: device.name }),
      testId: 'credentials-confirm',
    });
    if (ok) rotate.mutate(device.id, { onSuccess: (r) => setToken(r.token) });
  };
  return (
    <section className="flex flex-col gap-2 rounded-md border p-3" data-testid="device-credentials">
      <h3 className="text-sm font-semibold">{t('devices.field.credentials')}</h3>
      <p className="text-xs text-muted-foreground">
        {device.credentials.is_set ? t('devices.credentials.set') : t('devices.credentials.not-set')}
      </p>
      {token ? (
        <div className="flex flex-col gap-1">
          <p className="text-xs text-amber-600">{t('devices.credentials.once')}</p>
          <div className="flex gap-2">
            <Input readOnly value={token} className="font-mono text-xs" data-testid="credentials-token" />
            <Button
              size="icon"
              variant="outline"
              aria-label={t('devices.credentials.copy')}
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(token)
                  .then(() => notifySuccess(t('devices.credentials.copied')))
              }
              data-testid="credentials-copy"
            >
              <CopyIcon />
            </Button>
          </div>
        </div>
      ) : (
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          disabled={rotate.isPending}
          onClick={() => void confirmRotate()}
          data-testid="credentials-rotate"
        >
          <KeyRoundIcon />
          {t('devices.credentials.rotate')}
        </Button>
      )}
    </section>
  );
}
