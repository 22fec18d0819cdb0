/** External pages of the provider (spec section 2: create-account, footer links). */
export const EXTERNAL_LINKS = {
  createAccount: 'https://www.example.com/kontakt',
  aboutUs: 'https://www.example.com/about-us',
  contact: 'https://www.example.com/kontakt',
  imprint: 'https://www.example.com/impressum',
  privacy: 'https://www.example.com/datenschutz',
  terms: 'https://www.example.com/eula',
  /** backend admin tool linked for the super admin: the API's OpenAPI console */
  backendAdmin: '/api/v1/docs',
  docs: 'https://www.example.com/docs',
} as const;
