import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { Checkbox } from '../../../components/ui/checkbox';
import { Label } from '../../../components/ui/label';

/**
 * A boolean form value as a labelled checkbox. `disabled` is passed explicitly (not only through a
 * disabled fieldset) so that Radix's own disabled state and styling follow read-only editors too.
 */
export function CheckboxField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  disabled,
  testId,
}: {
  control: Control<T>;
  name: Path<T>;
  id: string;
  label: string;
  disabled: boolean;
  testId: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Checkbox
            id={id}
            checked={field.value}
            disabled={disabled}
            onCheckedChange={(v) => field.onChange(v === true)}
            data-testid={testId}
          />
        )}
      />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}
