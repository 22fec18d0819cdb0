import { LOGIN_LANGUAGES } from '@iot/domain';
import { GlobeIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../lib/i18n';
import { rememberLoginLanguage } from '../../lib/login-language';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';

/** Language names are shown in their own language, so they are not translated. */
const NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', fr: 'Français' };

/** Login-area switcher: en, de, fr (spec section 1). */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <Select
      value={i18n.language}
      onValueChange={(lang) => {
        rememberLoginLanguage(lang);
        setLanguage(lang);
      }}
    >
      <SelectTrigger
        className="w-36 border-white/30 bg-black/30 text-white"
        aria-label={t('public.language')}
        data-testid="language-switcher"
      >
        <GlobeIcon className="size-4" />
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {LOGIN_LANGUAGES.map((lang) => (
          <SelectItem key={lang} value={lang} data-testid={`language-option-${lang}`}>
            {NAMES[lang] ?? lang}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
