import { SaveIcon } from 'lucide-react';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { FormErrorMarker } from '../../../components/ui/form-field';
import { SheetBody, SheetFooter } from '../../../components/ui/sheet';
import type { FormSummary } from '../../../lib/form-state';

/**
 * The editor half of a device drawer: the form, its fields in one fieldset (disabled when read-only),
 * and the footer with the error count, cancel ("Back" when read-only) and save (hidden when read-only).
 */
export function ItemEditorForm({
  testId,
  fieldsetTestId,
  testIdPrefix,
  readOnly,
  summary,
  submitDisabled,
  onSubmit,
  onCancel,
  children,
}: {
  /** data-testid of the form. */
  testId: string;
  fieldsetTestId?: string;
  /** Prefix of the buttons' test ids: `<prefix>-cancel`, `<prefix>-submit`. */
  testIdPrefix: string;
  readOnly: boolean;
  summary: FormSummary;
  /** Save is also disabled while the form is invalid (`summary.canSubmit`). */
  submitDisabled: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-1 flex-col overflow-hidden"
      noValidate
      data-testid={testId}
    >
      <SheetBody className="py-2">
        <fieldset disabled={readOnly} className="flex flex-col gap-4" data-testid={fieldsetTestId}>
          {children}
        </fieldset>
      </SheetBody>
      <SheetFooter className="items-center">
        <FormErrorMarker summary={summary} className="mr-auto" />
        <Button type="button" variant="outline" onClick={onCancel} data-testid={`${testIdPrefix}-cancel`}>
          {readOnly ? t('common.back') : t('common.cancel')}
        </Button>
        {!readOnly && (
          <Button
            type="submit"
            disabled={!summary.canSubmit || submitDisabled}
            data-testid={`${testIdPrefix}-submit`}
          >
            <SaveIcon />
            {t('common.save')}
          </Button>
        )}
      </SheetFooter>
    </form>
  );
}
