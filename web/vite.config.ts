import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/** Four pages, one bundle graph: the engine and fairness packages are bundled from their sources. */
export default defineConfig({
  root,
  base: '/',
  // Nothing in the pages may be inline (the CSP has no 'unsafe-inline'): no inlined assets either.
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        table: resolve(root, 'index.html'),
        verify: resolve(root, 'verify/index.html'),
        regulator: resolve(root, 'regulator/index.html'),
        play: resolve(root, 'play/index.html'),
      },
    },
  },
});
