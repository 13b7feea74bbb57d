/** The web app's only console access point (no-console elsewhere). */
export const logger = {
  error(message: string, detail?: unknown): void {
    // eslint-disable-next-line no-console
    console.error(`[rarelens] ${message}`, detail ?? '');
  },
  warn(message: string, detail?: unknown): void {
    // eslint-disable-next-line no-console
    console.warn(`[rarelens] ${message}`, detail ?? '');
  },
};
