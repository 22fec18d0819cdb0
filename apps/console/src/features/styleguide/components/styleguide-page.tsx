import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router';
import { PageHeader } from '../../../components/shell/page-header';
import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import {
  ChartSection,
  CrudSection,
  EmptySection,
  ListSection,
  MapSection,
  TableSection,
  TreeSection,
} from './sections-data';
import {
  ButtonSection,
  FileSection,
  FloatLabelSection,
  FormLayoutSection,
  InputSection,
} from './sections-forms';
import {
  ApiSection,
  DisplaySection,
  ElementsSection,
  ElevationSection,
  ErrorSection,
  FlexboxSection,
  GridSection,
  IconsSection,
  MiscSection,
  Page404Section,
  SpacingSection,
  TextSection,
  TypographySection,
} from './sections-layout';
import { MENU_STEPS, MenuSection, MessagesSection, OverlaySection, PanelSection } from './sections-overlays';

/**
 * The styleguide sub-paths of spec section 2, each its own page with the project's components of that
 * category in their states; the menu page has its three steps as children.
 */
const SECTIONS: Record<string, () => React.ReactNode> = {
  formlayout: FormLayoutSection,
  input: InputSection,
  floatlabel: FloatLabelSection,
  button: ButtonSection,
  table: TableSection,
  list: ListSection,
  tree: TreeSection,
  panel: PanelSection,
  overlay: OverlaySection,
  ...Object.fromEntries(MENU_STEPS.map((step) => [step, () => <MenuSection step={step} />])),
  messages: MessagesSection,
  file: FileSection,
  chart: ChartSection,
  map: MapSection,
  misc: MiscSection,
  elements: ElementsSection,
  error: ErrorSection,
  display: DisplaySection,
  flexbox: FlexboxSection,
  text: TextSection,
  icons: IconsSection,
  grid: GridSection,
  spacing: SpacingSection,
  elevation: ElevationSection,
  typography: TypographySection,
  crud: CrudSection,
  page404: Page404Section,
  empty: EmptySection,
  api: ApiSection,
};

/** The navigation lists the top-level pages; the menu's steps are reached from the menu page. */
const NAV = Object.keys(SECTIONS).filter((id) => !id.includes('/'));

const titleOf = (id: string) => `sg.section.${id.replace('/', '.')}` as 'sg.section.input';

function Overview() {
  const { t } = useTranslation();
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="styleguide-overview">
      {NAV.map((id) => (
        <Link
          key={id}
          to={`/styleguide/${id}`}
          className="rounded-xl focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Card className="h-full hover:bg-accent">
            <CardHeader>
              <CardTitle>{t(titleOf(id))}</CardTitle>
              <CardDescription className="font-mono text-xs">/styleguide/{id}</CardDescription>
            </CardHeader>
          </Card>
        </Link>
      ))}
    </div>
  );
}

/** UI demo pages (super admin only, spec section 2): an overview and one page per category. */
export function StyleguidePage() {
  const { t } = useTranslation();
  const section = (useParams()['*'] ?? '').replace(/\/+$/, '');
  const Section = SECTIONS[section];
  return (
    <div className="flex flex-col gap-4" data-testid="styleguide-page" data-section={section}>
      <PageHeader
        title={
          section
            ? `${t('page.styleguide')}: ${t(Section ? titleOf(section) : 'sg.section.unknown')}`
            : t('page.styleguide')
        }
      />
      <nav className="flex flex-wrap gap-1" aria-label={t('page.styleguide')}>
        <NavLink end to="/styleguide" className={navClass}>
          {t('sg.section.root')}
        </NavLink>
        {NAV.map((id) => (
          <NavLink key={id} to={`/styleguide/${id}`} className={navClass}>
            {id}
          </NavLink>
        ))}
      </nav>
      {!section ? (
        <Overview />
      ) : Section ? (
        <div className="flex flex-col gap-4" data-testid={`styleguide-section-${section.replace('/', '-')}`}>
          <Section />
        </div>
      ) : (
        <p className="text-muted-foreground" data-testid="styleguide-unknown">
          {t('error-page.404-text')}
        </p>
      )}
    </div>
  );
}

function navClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-md border px-2 py-0.5 font-mono text-xs',
    isActive && 'bg-primary text-primary-foreground',
  );
}
