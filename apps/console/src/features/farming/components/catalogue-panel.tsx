import { PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import {
  type CatalogueEntry,
  useCatalogue,
  useDeleteCatalogueEntry,
  useSaveCatalogueEntry,
} from '../api/farming-api';
import { InlineEditActions } from './inline-edit-actions';

type Kind = 'soils' | 'plants';
const EMPTY = { code: '', name_de: '', name_en: '' };

/** One catalogue's own entries: add (code and names), rename, remove. Built-in entries are not listed. */
function OwnEntries({ kind, editable }: { kind: Kind; editable: boolean }) {
  const { t } = useTranslation();
  const entries = useCatalogue(kind);
  const save = useSaveCatalogueEntry();
  const remove = useDeleteCatalogueEntry();
  const [draft, setDraft] = useState(EMPTY);
  const [editing, setEditing] = useState<{ id: number; name_de: string; name_en: string } | null>(null);
  const own = (entries.data ?? []).filter(
    (e): e is CatalogueEntry & { id: number } => !e.builtin && e.id !== null,
  );

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    save.mutate({ kind, id: null, ...draft }, { onSuccess: () => setDraft(EMPTY) });
  };
  const rename = () => {
    if (!editing) return;
    const entry = own.find((e) => e.id === editing.id);
    save.mutate({ kind, code: entry?.code ?? '', ...editing }, { onSuccess: () => setEditing(null) });
  };

  return (
    <div className="flex flex-col gap-2" data-testid={`catalogue-${kind}`}>
      <h3 className="font-semibold">{t(`farming.own-${kind}`)}</h3>
      {editable && (
        <form onSubmit={add} className="flex flex-wrap gap-2">
          <Input
            placeholder={t('farming.code')}
            value={draft.code}
            onChange={(e) => setDraft({ ...draft, code: e.target.value })}
            className="w-24"
            data-testid={`catalogue-${kind}-code`}
          />
          <Input
            placeholder={t('farming.name-de')}
            value={draft.name_de}
            onChange={(e) => setDraft({ ...draft, name_de: e.target.value })}
            className="w-40"
            data-testid={`catalogue-${kind}-name-de`}
          />
          <Input
            placeholder={t('farming.name-en')}
            value={draft.name_en}
            onChange={(e) => setDraft({ ...draft, name_en: e.target.value })}
            className="w-40"
            data-testid={`catalogue-${kind}-name-en`}
          />
          <Button
            type="submit"
            size="sm"
            disabled={!draft.code.trim() || !draft.name_de.trim() || !draft.name_en.trim()}
            data-testid={`catalogue-${kind}-add`}
          >
            <PlusIcon />
            {t('farming.add-entry')}
          </Button>
        </form>
      )}
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('farming.code')}</TableHead>
            <TableHead>{t('farming.name-de')}</TableHead>
            <TableHead>{t('farming.name-en')}</TableHead>
            <TableHead className="w-24" />
          </TableRow>
        </TableHeader>
        <TableBody>
          {own.map((entry) =>
            editing?.id === entry.id ? (
              <TableRow key={entry.id} data-testid={`catalogue-${kind}-row-${entry.code}`}>
                <TableCell className="font-mono">{entry.code}</TableCell>
                <TableCell>
                  <Input
                    value={editing.name_de}
                    onChange={(e) => setEditing({ ...editing, name_de: e.target.value })}
                    data-testid={`catalogue-${kind}-edit-de`}
                  />
                </TableCell>
                <TableCell>
                  <Input
                    value={editing.name_en}
                    onChange={(e) => setEditing({ ...editing, name_en: e.target.value })}
                    data-testid={`catalogue-${kind}-edit-en`}
                  />
                </TableCell>
                <InlineEditActions
                  canSave={Boolean(editing.name_de.trim() && editing.name_en.trim())}
                  onSave={rename}
                  onCancel={() => setEditing(null)}
                  saveTestId={`catalogue-${kind}-save`}
                />
              </TableRow>
            ) : (
              <TableRow key={entry.id} data-testid={`catalogue-${kind}-row-${entry.code}`}>
                <TableCell className="font-mono">{entry.code}</TableCell>
                <TableCell>{entry.name_de}</TableCell>
                <TableCell>{entry.name_en}</TableCell>
                <TableCell className="flex gap-1">
                  {editable && (
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.edit')}
                        onClick={() =>
                          setEditing({ id: entry.id, name_de: entry.name_de, name_en: entry.name_en })
                        }
                        data-testid={`catalogue-${kind}-edit-${entry.code}`}
                      >
                        <PencilIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('common.delete')}
                        onClick={() => remove.mutate({ kind, id: entry.id })}
                      >
                        <Trash2Icon />
                      </Button>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ),
          )}
          {entries.isSuccess && own.length === 0 && (
            <TableRow>
              <TableCell colSpan={4} className="text-center text-muted-foreground">
                {t('common.no-data')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </div>
  );
}

/** The company's own soils and plants beside the built-in catalogues (issue 24). */
export function CataloguePanel({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="catalogue-panel">
      <h2 className="text-lg font-semibold">{t('farming.catalogues')}</h2>
      <div className="grid gap-4 lg:grid-cols-2">
        <OwnEntries kind="soils" editable={editable} />
        <OwnEntries kind="plants" editable={editable} />
      </div>
    </Card>
  );
}
