import { LOGIN_BACKGROUND_COUNT } from '@iot/domain';
import { useEffect, useState } from 'react';
import { Outlet, useMatches } from 'react-router';
import { LanguageSwitcher } from '../../components/public/language-switcher';
import { FooterLinks } from '../../components/public/public-footer';
import { VersionDisplay } from '../../features/auth/components/version-display';
import { isAuthenticated, useCurrentUser } from '../../lib/auth';
import { setLanguage } from '../../lib/i18n';
import { loginAreaLanguage } from '../../lib/login-language';
import { testHooks } from '../../lib/test-hooks';
import { cn } from '../../lib/utils';

function pickBackground(): number {
  const forced = testHooks().backgroundIndex;
  if (forced !== undefined && forced >= 0 && forced < LOGIN_BACKGROUND_COUNT) return forced;
  return Math.floor(Math.random() * LOGIN_BACKGROUND_COUNT);
}

interface PublicHandle {
  resetImage?: boolean;
  licenceImage?: boolean;
}

/**
 * Public layout (spec section 2): one of nine backgrounds chosen at random, the reset image on the
 * reset pages and the licence image on the licence page, language switcher and version display.
 */
export function PublicLayout() {
  const [index] = useState(pickBackground);
  const matches = useMatches();
  const handle = (matches[matches.length - 1]?.handle ?? {}) as PublicHandle;
  const user = useCurrentUser();
  const signedIn = isAuthenticated(user);
  useEffect(() => {
    // The login area picks its own language; a signed-in user (EULA, forced reset) keeps theirs.
    if (!signedIn) setLanguage(loginAreaLanguage());
  }, [signedIn]);
  const background = handle.resetImage
    ? 'login-bg-reset'
    : handle.licenceImage
      ? 'login-bg-licence'
      : `login-bg-${index}`;
  return (
    <div
      className={cn('flex min-h-dvh flex-col text-white', background)}
      data-testid="public-background"
      data-background={background}
    >
      <header className="flex items-center justify-between p-4">
        <span className="text-lg font-semibold tracking-wide" data-testid="public-brand">
          IoT Console
        </span>
        <LanguageSwitcher />
      </header>
      <main className="flex flex-1 items-center justify-center p-4">
        <div className="w-full max-w-md rounded-xl bg-background/95 p-6 text-foreground shadow-2xl">
          <Outlet />
        </div>
      </main>
      <footer className="flex flex-col items-center justify-between gap-2 p-4 text-xs text-white/80 sm:flex-row">
        <FooterLinks />
        <VersionDisplay />
      </footer>
    </div>
  );
}
