/** The upload feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { HpoTermPicker, OnsetBadge } from './hpo-term-picker.tsx';
