/// <reference types="vite/client" />

/** The build id, also published as /version.json (see vite.config.ts). */
declare const __BUILD_ID__: string;
