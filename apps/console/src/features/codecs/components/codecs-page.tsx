import { CpuIcon, PlusIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { type Codec, useCodecs, useDeleteCodec, useSaveCodec, useTestCodec } from '../api/codecs';
import { CodeEditor, type CodeError } from './code-editor';
import { CodecTestPanel } from './codec-test-panel';

const TEMPLATE = `function decodeUplink(input) {
  return {
    data: { bytes: input.bytes },
    warnings: [],
    errors: [],
  };
}
`;

/** /codecs: the company's payload codecs (TS013), an editor with the sandbox's errors, and a test panel. */
export function CodecsPage() {
  const { t } = useTranslation();
  const codecs = useCodecs();
  const editable = canEdit(useCurrentUser()?.roles);
  const [selected, setSelected] = useState<Codec | 'new' | null>(null);
  const list = codecs.data ?? [];
  const current = selected === 'new' ? null : (list.find((c) => c.id === selected?.id) ?? selected);
  return (
    <div className="flex flex-col gap-4" data-testid="codecs-page">
      <PageHeader
        title={t('page.codecs')}
        actions={
          editable && (
            <Button onClick={() => setSelected('new')} data-testid="codec-add">
              <PlusIcon />
              {t('codecs.add')}
            </Button>
          )
        }
      />
      <div className="grid gap-4 lg:grid-cols-[16rem_1fr]">
        <Card className="flex flex-col gap-1 p-2" data-testid="codecs-list">
          {list.length === 0 && <p className="text-muted-foreground p-2 text-sm">{t('codecs.none')}</p>}
          {list.map((codec) => (
            <Button
              key={codec.id}
              variant={current?.id === codec.id ? 'secondary' : 'ghost'}
              className="justify-start"
              onClick={() => setSelected(codec)}
              data-testid={`codec-item-${codec.id}`}
            >
              <CpuIcon />
              <span className="truncate">{codec.name}</span>
              {codec.suspended_at !== null && (
                <Badge variant="destructive" data-testid={`codec-suspended-${codec.id}`}>
                  {t('codecs.suspended')}
                </Badge>
              )}
              <span className="text-muted-foreground ml-auto text-xs">
                {t('codecs.device-count', { count: codec.device_ids.length })}
              </span>
            </Button>
          ))}
        </Card>
        {selected !== null && (
          <CodecEditor
            key={current?.id ?? 'new'}
            codec={current ?? null}
            editable={editable}
            onSaved={setSelected}
            onDeleted={() => setSelected(null)}
          />
        )}
      </div>
    </div>
  );
}

function CodecEditor({
  codec,
  editable,
  onSaved,
  onDeleted,
}: {
  codec: Codec | null;
  editable: boolean;
  onSaved: (codec: Codec) => void;
  onDeleted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const save = useSaveCodec();
  const remove = useDeleteCodec();
  const check = useTestCodec();
  const [name, setName] = useState(codec?.name ?? '');
  const [script, setScript] = useState(codec?.script ?? TEMPLATE);
  const [error, setError] = useState<CodeError | null>(null);

  const onSave = () =>
    save.mutate(
      { id: codec?.id ?? null, name, script },
      {
        onSuccess: (saved) => {
          setError(null);
          notifySuccess(t('codecs.saved'));
          onSaved(saved);
        },
        // The save answer names no line (90012); the draft test of the same source does.
        onError: () =>
          check.mutate(
            { script, operation: 'decodeUplink', bytes: '' },
            {
              onSuccess: (r) =>
                setError(r.line === undefined ? null : { line: r.line, message: r.errors[0] ?? '' }),
            },
          ),
      },
    );
  const onDelete = async () => {
    if (!codec) return;
    const ok = await overlay.confirm({
      title: t('codecs.delete-title'),
      message: t('codecs.delete-message', { name: codec.name, count: codec.device_ids.length }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'codec-delete-confirm',
    });
    if (ok) remove.mutate(codec.id, { onSuccess: onDeleted });
  };

  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="codec-editor">
      <Card className="flex flex-col gap-3 p-4">
        <div className="flex items-end gap-2">
          <div className="flex flex-1 flex-col gap-1">
            <Label htmlFor="codec-name">{t('codecs.name')}</Label>
            <Input
              id="codec-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="codec-name"
            />
          </div>
          {editable && (
            <Button onClick={onSave} disabled={save.isPending} data-testid="codec-save">
              <SaveIcon />
              {t('common.save')}
            </Button>
          )}
          {editable && codec && (
            <Button variant="outline" onClick={() => void onDelete()} data-testid="codec-delete">
              <Trash2Icon />
              {t('common.delete')}
            </Button>
          )}
        </div>
        {codec?.suspended_at && (
          <p className="text-destructive text-sm" data-testid="codec-suspended">
            {t('codecs.suspended-since', { time: formatDateTime(codec.suspended_at, i18n.language) })}
          </p>
        )}
        {codec && (
          <p className="text-muted-foreground text-sm" data-testid="codec-functions">
            {t('codecs.functions', { list: codec.functions.join(', ') })}
          </p>
        )}
        <CodeEditor value={script} onChange={setScript} error={error} testId="codec-source" />
        {error && (
          <p className="text-destructive text-sm" data-testid="codec-error">
            {t('codecs.test.error-at-line', { line: error.line, error: error.message })}
          </p>
        )}
      </Card>
      {editable && <CodecTestPanel script={script} onError={setError} />}
    </div>
  );
}
