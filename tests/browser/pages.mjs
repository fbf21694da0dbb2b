// Drives Debian's chromium (headless, through playwright-core) against a
// running autoprecios-edge: loads the main page types at desktop and phone
// widths (1280, 390 and 360 pixels), fails on any console error, on a page
// wider than its viewport, on content that sticks out of it outside a
// scroll container that shows it scrolls, on clipped content, on text under
// 12 pixels (chart text as rendered), on a search without results or a compare without its table,
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
  { label: 'phone', width: 390, height: 844 },
  { label: 'small-phone', width: 360, height: 740 },
  // The site must work without JavaScript: every page again, script off.
  { label: 'no-script', width: 1280, height: 900, javaScriptEnabled: false },
];

// The smallest text a reader must read, in CSS pixels as rendered (SVG text
// scaled with its drawing).
const MIN_FONT_PX = 12;

// Runs in the page: what a phone reader would miss. An element that sticks
// out of the viewport must sit in a horizontal scroll container that shows
// it scrolls (the `.table-wrap` shadows: a `local` gradient background); no
// element may clip its content; no text may be smaller than `minFont`.
function layoutProblems(minFont) {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '')
    + (typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '');
  const scroller = (el) => {
    for (let parent = el.parentElement; parent; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') return parent;
    }
    return null;
  };
  const cued = (box) => {
    const style = getComputedStyle(box);
    return style.backgroundImage.includes('gradient') && style.backgroundAttachment.includes('local');
  };
  const reported = [];
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const inside = reported.some((outer) => outer.contains(el));
    if (!inside && (rect.right > width + 1 || rect.left < -1)) {
      const box = scroller(el);
      if (!box) problems.push(`${name(el)} sticks out of the viewport (${Math.round(rect.left)} to ${Math.round(rect.right)} of ${width})`);
      else if (!cued(box)) problems.push(`${name(el)} scrolls inside ${name(box)}, which shows no sign that it scrolls`);
      if (!box || !cued(box)) reported.push(el);
    }
    // Form fields scroll their own text; anything else that hides overflow cuts it.
    const field = el.matches('input, select, textarea');
    if (!field && (style.overflowX === 'hidden' || style.overflowX === 'clip') && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} cuts off its content`);
    }
    const ownText = [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '');
    if (ownText) {
      let size = parseFloat(style.fontSize);
      if (el instanceof SVGElement && el.getScreenCTM()) {
        const matrix = el.getScreenCTM();
        size *= Math.hypot(matrix.a, matrix.b);
      }
      if (size < minFont - 0.05) problems.push(`${name(el)} text at ${size.toFixed(1)}px: ${JSON.stringify(el.textContent.trim().slice(0, 40))}`);
    }
  }
  return problems.slice(0, 8);
}

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
        await page.waitForSelector(spec.ready, { timeout: 10000, state: 'attached' });
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
    for (const problem of await page.evaluate(layoutProblems, MIN_FONT_PX)) failures.push(`${where}: ${problem}`);
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
