// Drives Debian's chromium (headless, through playwright-core) against a
// running autoprecios-edge: loads the main page types at desktop and phone
// widths, fails on any console error, on a page wider than a 375-pixel
// viewport, on a search without results or a compare without its table,
// on an API error not shown in Spanish, and saves a screenshot of each page;
// then all of it again with JavaScript off.
// Usage: node tests/browser/pages.mjs BASE_URL SCREENSHOT_DIR
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const [base, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

const hilux = 'toyota-hilux-28-tdi-srv-4x4-at';
const ranger = 'ford-ranger-30-v6-td-limited-plus-4x4-at';
const pages = [
  { name: 'home', path: '/' },
  { name: 'make', path: '/modelos/toyota' },
  { name: 'model', path: '/modelos/toyota/hilux' },
  { name: 'version', path: `/versiones/${hilux}` },
  { name: 'deals', path: '/ofertas', ready: 'ol.cards li', min: 1 },
  { name: 'datos', path: '/datos', ready: 'a[href$=".parquet"]', min: 18 },
  { name: 'search', path: '/buscar?make=Toyota&type=Pickup&sort=price_asc', ready: '#lista li', min: 1 },
  { name: 'compare', path: `/comparar?ids=${hilux},${ranger}`, ready: 'table.compare-table thead th', min: 3 },
  // A search the API refuses: the page comes with the API's 400 (chromium
  // logs it), and the reason must show in Spanish, by the field's label.
  {
    name: 'search-error', path: '/buscar?minPriceUsd=30000&maxPriceUsd=20000', ready: '#estado li', min: 1,
    status: 400, text: 'Precio máximo (US$): no puede ser menor que el precio mínimo', expectedConsole: /status of 400/,
  },
];
const viewports = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: 'phone', width: 375, height: 800 },
  // The site must work without JavaScript: every page again, script off.
  { label: 'no-script', width: 1280, height: 900, javaScriptEnabled: false },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const failures = [];
for (const viewport of viewports) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    javaScriptEnabled: viewport.javaScriptEnabled !== false,
  });
  for (const spec of pages) {
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => {
      const expected = spec.expectedConsole && spec.expectedConsole.test(message.text());
      if (message.type() === 'error' && !expected) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    const response = await page.goto(base + spec.path, { waitUntil: 'load' });
    const where = `${spec.name} (${viewport.label})`;
    if (!response || response.status() !== (spec.status || 200)) failures.push(`${where}: status ${response && response.status()}`);
    if (spec.ready) {
      try {
        await page.waitForSelector(spec.ready, { timeout: 10000 });
        const count = await page.locator(spec.ready).count();
        if (count < spec.min) failures.push(`${where}: ${count} × ${spec.ready}, expected at least ${spec.min}`);
      } catch (error) {
        failures.push(`${where}: ${spec.ready} never appeared`);
      }
    }
    if (spec.text) {
      const shown = await page.locator('#estado').textContent();
      if (!shown.includes(spec.text)) failures.push(`${where}: ${JSON.stringify(spec.text)} not in ${JSON.stringify(shown)}`);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) failures.push(`${where}: ${overflow}px of horizontal scroll`);
    for (const error of errors) failures.push(`${where}: console error: ${error}`);
    await page.screenshot({ path: `${shots}/${spec.name}-${viewport.label}.png`, fullPage: true });
    console.log(`${failures.length ? '…' : 'ok'}  ${where}`);
    await page.close();
  }
  await context.close();
}
// The forms, with the script and without: the model page's ticked boxes
// open a comparison, and the search form's submission shows results.
for (const javaScriptEnabled of [true, false]) {
  const where = javaScriptEnabled ? 'script' : 'no-script';
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  try {
    await page.goto(base + '/modelos/toyota/hilux', { waitUntil: 'load' });
    const boxes = page.locator('input[name="ids"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await Promise.all([page.waitForNavigation(), page.click('form[action="/comparar"] button[type="submit"]')]);
    const columns = await page.locator('table.compare-table thead th').count();
    if (columns !== 3) failures.push(`compare form (${where}): ${columns} columns, expected 3`);
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    await page.selectOption('#f-make', 'Toyota');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const cards = await page.locator('#lista li').count();
    if (cards < 1) failures.push(`search form (${where}): no results at ${page.url()}`);
    console.log(`${failures.length ? '…' : 'ok'}  forms (${where})`);
  } catch (error) {
    failures.push(`forms (${where}): ${error}`);
  }
  await context.close();
}
await browser.close();
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
