/** The auth feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { NewPasswordFields } from './password-rules.tsx';
