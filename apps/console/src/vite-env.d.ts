/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TEST_HOOKS?: string;
  readonly VITE_DEVELOPMENT_HOST?: string;
}
