import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

/**
 * Every build gets an id, compiled into the bundle and published as /version.json, so an
 * open tab can notice that a newer build was deployed and reload on its next navigation.
 */
function buildIdPlugin(buildId: string): Plugin {
  return {
    name: 'rarelens-build-id',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ buildId, builtAt: new Date().toISOString() }),
      });
    },
  };
}

/** Where the dev and preview servers send /api (the Fastify server). */
const apiTarget = process.env.RARELENS_API_URL ?? 'http://localhost:3000';

const buildId = process.env.RARELENS_BUILD_ID ?? `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), buildIdPlugin(buildId)],
  define: {
    __BUILD_ID__: JSON.stringify(command === 'build' ? buildId : 'dev'),
  },
  server: { port: 5173, proxy: { '/api': { target: apiTarget } } },
  preview: { port: 4173, proxy: { '/api': { target: apiTarget } } },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Long-lived vendor chunks: app releases do not invalidate the libraries' cache.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          if (id.includes('node_modules/zod/')) return 'zod';
          // igv.js (~1.5 MB) is imported on demand by the variant evidence view: keep it out of vendor.
          if (id.includes('node_modules/igv/')) return 'igv';
          if (id.includes('node_modules/@radix-ui/') || id.includes('node_modules/@floating-ui/')) return 'radix';
          return 'vendor';
        },
      },
    },
  },
}));
