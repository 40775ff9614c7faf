import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { serviceWorkerDenylist } from '../api/src/http/serverPaths';

/**
 * Marks an answer the service worker serves from its cache (the network did not answer) with
 * `X-Paybench-From-Cache`, so the app can say "Offline · as of" the answer's own `Date`
 * (web/src/api/offline.ts). Copied into the service worker, so it refers to nothing outside itself.
 */
const markKeptCopy = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) => {
    if (!cachedResponse) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.set('X-Paybench-From-Cache', '1');
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

/**
 * The fonts of the first page's text (Inter regular for the lede, bold for the heading, Latin), asked
 * for beside the script instead of once the page is laid out: the largest text of a first visit
 * then paints in its own face without a second paint, a round trip earlier on a phone.
 */
const FIRST_PAINT_FONTS = [/^inter-latin-400-normal-[\w-]+\.woff2$/, /^inter-latin-700-normal-[\w-]+\.woff2$/];

function preloadFirstPaintFonts(): Plugin {
  return {
    name: 'paybench-preload-first-paint-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const files = Object.keys(context.bundle ?? {}).filter((file) => FIRST_PAINT_FONTS.some((font) => font.test(file.split('/').pop() ?? '')));
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  // Vite compiles .tsx itself; the API serves dist/ on the same origin.
  esbuild: { jsx: 'automatic' },
  plugins: [
    preloadFirstPaintFonts(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Paybench',
        short_name: 'Paybench',
        description: 'Pay benchmarking, salary bands, merit cycles, total rewards and offers.',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        background_color: '#f4f6fa',
        theme_color: '#1f2a44',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        // Pages and endpoints the server answers itself (one list with the server's, api/src/http/serverPaths.ts).
        navigateFallbackDenylist: serviceWorkerDenylist(),
        // Only the signed-in person's own answers are kept for offline use (who they are, their own
        // pay), never while an internal admin views as someone, and nobody else's pay. The function
        // is copied into the service worker, so it refers to nothing outside itself.
        runtimeCaching: [
          {
            // The ISO 4217 currency table (public reference data, the same for everyone): every
            // amount's decimal places come from it (web/src/ui/format.ts), so it is kept with the
            // app shell and the app opens offline; refreshed in the background when online.
            urlPattern: ({ url }) => url.pathname === '/api/currencies' && url.search === '',
            handler: 'StaleWhileRevalidate',
            options: { cacheName: 'paybench-reference' },
          },
          {
            urlPattern: ({ url, request }) =>
              (url.pathname === '/api/me' || url.pathname === '/api/employees/me') &&
              !request.headers.has('X-Paybench-View-As') &&
              !request.headers.has('X-Paybench-Company-As'),
            handler: 'NetworkFirst',
            options: { cacheName: 'paybench-own-data', networkTimeoutSeconds: 5, plugins: [markKeptCopy] },
          },
          {
            // The person's own total-rewards answers (docs/total-rewards.md), by the paths that only
            // ever answer about the caller: their statement, their issued statements and the PDF of
            // one of those they opened. An admin's preview of someone else (/statements/{id}), the
            // admins' list and their read of anyone's issued PDF (/issued-statements/…) are never kept.
            urlPattern: ({ url, request }) =>
              (url.pathname === '/api/total-rewards/statement' ||
                url.pathname === '/api/total-rewards/issued-statements' ||
                /^\/api\/total-rewards\/statement\/issued\/[A-Za-z0-9-]+\/pdf$/.test(url.pathname)) &&
              url.search === '' &&
              !request.headers.has('X-Paybench-View-As') &&
              !request.headers.has('X-Paybench-Company-As'),
            handler: 'NetworkFirst',
            options: { cacheName: 'paybench-total-rewards', networkTimeoutSeconds: 5, plugins: [markKeptCopy] },
          },
          {
            // The person's own reward letters (docs/reward-letters.md): their list and their letter of a
            // cycle, by those exact paths only (never the planners' /api/v2/meritCycles/… paths, which
            // also answer managers about their reports, and never the PDF), and never while viewing as.
            urlPattern: ({ url, request }) =>
              /^\/api\/reward-letters(\/[A-Za-z0-9-]+)?$/.test(url.pathname) &&
              url.search === '' &&
              !request.headers.has('X-Paybench-View-As') &&
              !request.headers.has('X-Paybench-Company-As'),
            handler: 'NetworkFirst',
            options: { cacheName: 'paybench-reward-letters', networkTimeoutSeconds: 5, plugins: [markKeptCopy] },
          },
          {
            // The person's own pay information (docs/pay-transparency.md): their requests and the
            // answers delivered to them, by the paths that only ever answer about the caller (never
            // HR's /api/pay-transparency/requests…), so an answer once opened reads offline.
            urlPattern: ({ url, request }) =>
              /^\/api\/pay-transparency\/me(\/requests\/[A-Za-z0-9-]+)?$/.test(url.pathname) &&
              url.search === '' &&
              !request.headers.has('X-Paybench-View-As') &&
              !request.headers.has('X-Paybench-Company-As'),
            handler: 'NetworkFirst',
            options: { cacheName: 'paybench-pay-information', networkTimeoutSeconds: 5, plugins: [markKeptCopy] },
          },
          {
            // The candidate's own offer letter, by the token of their link: that exact path only (never
            // its PDF, and never a recruiter's view of an offer under /api/offers), so the letter they
            // opened reads offline; a link that no longer works answers 410 and shows as closed.
            urlPattern: ({ url }) => /^\/api\/offer-letters\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.search === '',
            handler: 'NetworkFirst',
            options: { cacheName: 'paybench-offer-letters', networkTimeoutSeconds: 5, plugins: [markKeptCopy] },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      onwarn(warning, warn) {
        // swr marks its modules 'use client' for React Server Components; meaningless in a SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
