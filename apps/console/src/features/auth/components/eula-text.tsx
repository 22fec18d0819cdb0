import { useTranslation } from 'react-i18next';

/** The licence agreement text, also shown in the EULA dialog. */
export function EulaText() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <p>{t('eula.text-1')}</p>
      <p>{t('eula.text-2')}</p>
      <p>{t('eula.text-3')}</p>
    </div>
  );
}
