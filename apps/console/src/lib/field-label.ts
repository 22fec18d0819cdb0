import { fieldLabel, startupLanguage } from '@iot/domain';
import { i18n } from './i18n';

/**
 * A data field as a person reads it in the interface language, from the domain's one catalogue: a
 * virtual field its given name, a known field its label ("Bodenfeuchte"), any other its key. A device's
 * own metadata label, where it has one, goes first (callers pass it).
 */
export function dataFieldLabel(field: string, own?: string | null): string {
  return own || fieldLabel(field, startupLanguage(i18n.language));
}
