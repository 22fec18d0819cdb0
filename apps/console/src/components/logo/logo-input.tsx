import { ImageIcon, XIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { Button } from '../ui/button';

/** What the API takes (apps/api check-logo.ts): these types, at most 64 KB once decoded. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];
export const LOGO_MAX_BYTES = 64 * 1024;

/**
 * A company logo chosen from a file (issue #27): checked for type and size here as the API checks them,
 * read as a data URL, shown as a preview; `null` removes the logo.
 */
export function LogoInput({
  value,
  onChange,
  testId,
}: {
  value: string | null;
  onChange: (logo: string | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const pick = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) return notifyError(t('logo.wrong-type'));
    if (file.size > LOGO_MAX_BYTES) return notifyError(t('logo.too-large'));
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result));
    reader.readAsDataURL(file);
  };
  return (
    <div className="flex items-center gap-3" data-testid={testId}>
      <div className="flex size-14 items-center justify-center rounded border bg-muted/40">
        {value ? (
          <img
            src={value}
            alt={t('logo.label')}
            className="max-h-12 max-w-12"
            data-testid={`${testId}-preview`}
          />
        ) : (
          <ImageIcon className="size-6 text-muted-foreground" />
        )}
      </div>
      <label className="flex flex-col gap-1 text-sm">
        {t('logo.label')}
        <input
          type="file"
          accept={LOGO_TYPES.join(',')}
          onChange={pick}
          className="text-xs"
          data-testid={`${testId}-file`}
        />
        <span className="text-xs text-muted-foreground">{t('logo.hint')}</span>
      </label>
      {value && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => onChange(null)}
          data-testid={`${testId}-remove`}
        >
          <XIcon />
          {t('logo.remove')}
        </Button>
      )}
    </div>
  );
}
