/**
 * A company logo arrives as a data URL inside JSON (spec section 3: logo). Only raster and vector image
 * types a browser shows in an <img> pass (else 50109), at most LOGO_MAX_BYTES once decoded (else 90037).
 */
import { apiError } from '../lib/errors';

export const LOGO_MAX_BYTES = 64 * 1024;
const LOGO_DATA_URL = /^data:image\/(png|jpeg|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;

/** Throws unless `logo` is null (no logo) or an accepted image data URL. */
export function checkLogo(logo: string | null | undefined): void {
  if (logo === null || logo === undefined || logo === '') return;
  const match = LOGO_DATA_URL.exec(logo);
  if (!match) throw apiError('UNSUPPORTED_CONTENT_TYPE', { field: 'logo' });
  const bytes = Buffer.from(match[2]!, 'base64').length;
  if (bytes > LOGO_MAX_BYTES) throw apiError('LOGO_TOO_LARGE', { bytes, max: LOGO_MAX_BYTES });
}
