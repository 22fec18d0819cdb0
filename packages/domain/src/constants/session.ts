/**
 * Session and business constants of spec section 9. Where the spec does not give a unit, the
 * name says so rather than guessing one.
 */
/** Session duration; the spec gives 7200 without a unit (7200 s would be two hours). */
export const SESSION_DURATION = 7200;
/** Reminder before the session ends; the spec gives 60 without a unit. */
export const SESSION_REMINDER = 60;
/** Idle timer default, reset on mouse move and key press. */
export const IDLE_TIMEOUT_SECONDS = 300;
/** The idle message promises automatic logout after 15 minutes of inactivity. */
export const AUTO_LOGOUT_MINUTES = 15;

export const DEFAULT_MAP_CENTER = { latitude: 48.041477, longitude: 7.576644 } as const;
export const MIN_PASSWORD_LENGTH = 10;
export const DEFAULT_PHONE_COUNTRY = 'DE';
export const MOBILE_BREAKPOINT_PX = 991;
export const TOAST_LIFE_MS = 10_000;
export const TOAST_POSITION = 'top-right';
export const CSRF_REDIRECT_DELAY_MS = 3000;
export const STALE_DATA_HOURS = 8;
export const VERSION_DISPLAY_LENGTH = 8;
/** Shown instead of the version when the backend version cannot be read. */
export const VERSION_UNKNOWN = 'xxxxxxxx';
export const LOGIN_BACKGROUND_COUNT = 9;
export const SORT_VALUE_MIN = 1;
export const SORT_VALUE_MAX = 99_999;
export const SIGNAL_STRENGTH_MIN = 1;
export const SIGNAL_STRENGTH_MAX = 5;
export const ENERGY_TRANSDUCER_MULTIPLIERS = [50, 200] as const;
export const MAX_PUMPS = 10;
export const MAX_VALVES = 4;
export const BATTERY_THRESHOLDS = { full: 80, medium: 50, low: 30, empty: 10 } as const;
export const AREA_THRESHOLDS_M2 = { hectare: 9999, squareKilometre: 999_999 } as const;
export const EMAIL_SHORTEN_LENGTHS = { local: 15, domain: 15 } as const;
export const API_BASE_PATH = '/api/v1';
/** Company time zone default (architecture); schedules and calendar buckets are computed in it. */
export const DEFAULT_TIME_ZONE = 'Europe/Berlin';

export const SESSION_STORAGE_KEYS = { redirectTo: 'redirectTo', authenticated: 'authenticated' } as const;

/**
 * A readable cookie beside the HttpOnly session cookie, set and cleared with it: a console starting
 * without it knows nobody is signed in and asks for no current user (no 401 at a signed-out start).
 */
export const SIGNED_IN_COOKIE = 'iot_signed_in';

/** Interface languages (spec section 1). */
export const INTERFACE_LANGUAGES = ['de', 'en'] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];
/** Languages of the login-area switcher (spec section 1). */
export const LOGIN_LANGUAGES = ['en', 'de', 'fr'] as const;
/** Translation lists shown elsewhere in the product (spec section 1). */
export const TRANSLATION_LANGUAGES = ['bg', 'cs', 'de', 'en', 'es', 'fr', 'hu', 'pl', 'ro', 'uk'] as const;
/** Content languages (spec section 9). */
export const CONTENT_LANGUAGES = ['de', 'en', 'es', 'fr', 'pl', 'ro', 'uk'] as const;
/** Target languages for machine translation (spec section 9). */
export const TRANSLATION_TARGET_LANGUAGES = [
  'bg',
  'cs',
  'da',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fr',
  'hu',
  'it',
  'ja',
  'lt',
  'lv',
  'nl',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'zh',
] as const;
/** Countries of company addresses (spec sections 3, 9). */
export const ADDRESS_COUNTRIES = ['DE', 'CH', 'AT', 'FR'] as const;
export type AddressCountry = (typeof ADDRESS_COUNTRIES)[number];
/** Fallback for missing translations; the spec also reads en-US, the interface's own German wins. */
export const FALLBACK_LANGUAGE = 'de';
