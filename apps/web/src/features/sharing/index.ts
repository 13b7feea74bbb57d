/** The sharing feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { ShareCaseButton } from './share-dialog.tsx';
