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
const bmw = 'bmw-x1-sdrive20i-xline-steptronic';
// The sample's money cases: a peso price that never moved while the dollar
// rose, one that dealers cut in pesos, and a price checked 60 days before T.
const dollarUp = 'renault-kangoo-16-express-confort-mt';
const pesoCut = 'fiat-cronos-13-drive-mt';
const stale = 'volvo-xc90-b6-ultimate-awd-at';
// Every page type shows these: one reference dollar, named once, and the
// synthetic notice above the fold.
const EVERY_PAGE = ['oneDollar', 'syntheticNotice', 'targets', 'scrollFocus'];
// Every page type. `checks` name the in-page assertions of PAGE_CHECKS
// below that the page must pass at every width, with and without script.
const pages = [
  { name: 'home', path: '/', answer: ['.card .price'], checks: ['wholePrices', 'goodNewsNotRed', 'plainWords', 'homeSearch', 'compareBoxes', 'bands', 'fees'] },
  { name: 'makes', path: '/modelos', answer: ['nav.az'] },
  { name: 'make', path: '/modelos/toyota', answer: ['.model-list li'] },
  { name: 'model', path: '/modelos/toyota/hilux', answer: ['tbody tr td.num'], checks: ['wholePrices', 'plainWords'] },
  { name: 'version', path: `/versiones/${hilux}`, answer: ['.price-main', '.price-box p.range', '.price-box p.band', '.price-box .pick-add'], checks: ['wholePrices', 'pesosLead', 'goodNewsNotRed', 'plainWords', 'chart', 'fees', 'conversionsExact'] },
  { name: 'version-usd', path: `/versiones/${bmw}`, answer: ['.price-main', '.price-box p.range', '.price-box p.band'], checks: ['wholePrices', 'plainWords', 'chart', 'bands', 'fees', 'conversionsExact'] },
  {
    name: 'version-dollar-up', path: `/versiones/${dollarUp}`, checks: ['wholePrices', 'pesosLead', 'chart', 'bands', 'fees'],
    says: ['Buen precio', 'La diferencia es por la suba del dólar', 'En pesos, sin cambios desde el', 'Precio habitual en pesos'],
  },
  {
    name: 'version-peso-cut', path: `/versiones/${pesoCut}`, checks: ['wholePrices', 'pesosLead', 'chart', 'bands', 'fees'],
    says: ['Muy buen precio', 'una baja en pesos de las concesionarias', 'En pesos, bajó de $ '],
  },
  { name: 'version-stale', path: `/versiones/${stale}`, checks: ['wholePrices', 'fees'], says: ['Precio de hace 6'] },
  { name: 'version-capitals', path: '/versiones/peugeot-208-16-allure-at~u0.15.22.23', checks: ['chart'] },
  { name: 'deals', path: '/ofertas', answer: ['.card .price'], ready: 'ol.cards li', min: 1, checks: ['wholePrices', 'goodNewsNotRed', 'plainWords', 'compareBoxes'] },
  { name: 'deals-drops', path: '/ofertas/bajas', answer: ['.card .price'], ready: 'ol.cards li', min: 1, checks: ['wholePrices', 'goodNewsNotRed', 'plainWords', 'compareBoxes', 'dealFilters'] },
  { name: 'deals-window', path: '/buscar?kind=new_opportunities&window=3d', answer: ['#lista .card .price'], ready: '#lista li', min: 1, text: 'Nuevas oportunidades de los últimos 3 días: ', checks: ['goodNewsNotRed', 'plainWords', 'compareBoxes'] },
  { name: 'datos', path: '/datos', answer: ['main h2'], ready: 'a[href$=".parquet"]', min: 18 },
  // The market report: the headline and the first index table's first row
  // on a phone's first screen; its chart drawn at the page's width.
  { name: 'informes', path: '/informes', answer: ['.report-list li'], says: ['En octubre de 2026 los precios de los 0 km'] },
  {
    name: 'informe', path: '/informes/2026-10', answer: ['main p.lead', 'main .table-wrap tbody tr'], ready: '.report-chart img', min: 2,
    says: ['En octubre de 2026 los precios de los 0 km en concesionarias', 'Fuente: autoprecios, informe de octubre de 2026'], checks: ['reportCharts'],
  },
  { name: 'search', path: '/buscar?make=Toyota&type=Pickup&sort=price_asc', answer: ['#lista .card .price'], ready: '#lista li', min: 1, checks: ['wholePrices', 'compareBoxes'] },
  { name: 'version-picked', path: `/versiones/${hilux}?comparar=${ranger}`, answer: ['.price-main'], checks: ['compareBar'] },
  { name: 'compare', path: `/comparar?ids=${hilux},${ranger}`, answer: ['table.compare-table tbody tr'], ready: 'table.compare-table thead th', min: 3, checks: ['wholePrices', 'compareBar', 'stickyNames'] },
  // One unknown ID: named, with the API's 404, while the others still show.
  {
    name: 'compare-unknown', path: `/comparar?ids=${hilux},no-existe,${ranger}`, answer: ['#estado'], ready: 'table.compare-table thead th', min: 3,
    status: 404, text: '«no-existe»', expectedConsole: /status of 404/,
  },
  // A search the API refuses: the page comes with the API's 400 (chromium
  // logs it), and the reason must show in Spanish, by the field's label.
  {
    name: 'search-error', path: '/buscar?minPriceUsd=30000&maxPriceUsd=20000', answer: ['.field-error'], ready: '#estado li', min: 1,
    status: 400, text: 'Precio máximo (US$): no puede ser menor que el precio mínimo', expectedConsole: /status of 400/,
  },
  { name: 'methodology', path: '/metodologia', answer: ['nav.toc'] },
  { name: 'dolar', path: '/dolar', answer: ['#valor'], says: ['Dólar de referencia: $ '] },
  { name: 'developers', path: '/developers', answer: ['nav.toc'] },
  { name: 'not-found', path: '/versiones/no-existe', answer: ['main h1'], status: 404, expectedConsole: /status of 404/ },
];

// In-page assertions, one per point of the site's reading as a buyer's.
const PAGE_CHECKS = {
  // WCAG 2.2 target size (2.5.8): every control at least 24 by 24 pixels,
  // or spaced so that a 24-pixel circle on its centre touches no other
  // target (nor another small target's circle); a link inside a sentence
  // is exempt (its size is the text's).
  targets: () => {
    const seen = [];
    for (const el of document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, summary')) {
      const style = getComputedStyle(el);
      if (el.closest('.visually-hidden') || el.classList.contains('skip') || !el.checkVisibility({ checkVisibilityCSS: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const inSentence = style.display === 'inline' && [...el.parentElement.childNodes]
        .some((node) => node !== el && node.nodeType === Node.TEXT_NODE && /[\p{L}\d]/u.test(node.textContent));
      seen.push({ el, box, inSentence, small: box.width < 23.5 || box.height < 23.5 });
    }
    const centre = (box) => [box.left + box.width / 2, box.top + box.height / 2];
    const toRect = ([x, y], box) => Math.hypot(Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
    const problems = [];
    for (const target of seen.filter((t) => t.small && !t.inSentence)) {
      const c = centre(target.box);
      const crowded = seen.find((other) => other !== target && !other.el.contains(target.el) && !target.el.contains(other.el)
        && (other.small ? Math.hypot(c[0] - centre(other.box)[0], c[1] - centre(other.box)[1]) < 24 : toRect(c, other.box) < 12));
      if (crowded) {
        problems.push(`${target.el.tagName.toLowerCase()} ${JSON.stringify(target.el.textContent.trim().slice(0, 30))} is ${Math.round(target.box.width)}×${Math.round(target.box.height)}, close to ${JSON.stringify(crowded.el.textContent.trim().slice(0, 20))}`);
      }
    }
    // The controls a buyer taps most are full size, whatever their spacing.
    for (const el of document.querySelectorAll('.pick-add, .compare-go, input[type="checkbox"], th[scope="row"] > a, .card-title a, details > summary')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.width < 23.5 || box.height < 23.5)) problems.push(`${el.tagName.toLowerCase()} ${JSON.stringify(el.textContent.trim().slice(0, 30))} is ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return problems.slice(0, 6);
  },
  // A scroll box is a tab stop exactly when it scrolls (the script marks
  // them; without it none is).
  scrollFocus: () => {
    const scripted = document.documentElement.classList.contains('js');
    const problems = [];
    for (const box of document.querySelectorAll('.table-wrap, .doc table, pre')) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      const focusable = box.getAttribute('tabindex') === '0';
      if (focusable && !scrolls) problems.push(`a ${box.tagName.toLowerCase()} that does not scroll is a tab stop`);
      if (scripted && scrolls && !focusable) problems.push(`a ${box.tagName.toLowerCase()} that scrolls is not a tab stop`);
    }
    return problems.slice(0, 4);
  },
  // Car prices in whole units; the other currency at the page's dollar;
  // percentages in whole numbers.
  wholePrices: () => {
    const problems = [];
    for (const el of document.querySelectorAll('.price .amount, .price-main .amount, td.num, .figures dd, .compare-table td')) {
      const text = el.textContent.trim();
      if (/^(US)?\$ [\d.]+,\d\d$/.test(text)) problems.push(`a car price with cents: ${text}`);
    }
    const scripted = document.documentElement.classList.contains('js');
    for (const el of document.querySelectorAll('.price .original, .price-main .equiv')) {
      // Without the script a conversion is not shown at all.
      if (!scripted) {
        if (!el.hidden) problems.push(`a conversion shown without the script: ${el.textContent.trim()}`);
        continue;
      }
      if (el.hidden || !/^equivale a (US)?\$ [\d.]+ al dólar de referencia$/.test(el.textContent.trim())) {
        problems.push(`the other currency not at the page's dollar: ${el.textContent.trim()}`);
      }
    }
    // The market report's headline keeps its one decimal, as the press
    // quotes it (the report's own pages are not held to whole numbers).
    const main = document.querySelector('main').cloneNode(true);
    main.querySelectorAll('.report-teaser').forEach((el) => el.remove());
    const decimals = main.textContent.match(/\d+,\d+ %/);
    if (decimals) problems.push(`a percentage with decimals: ${decimals[0]}`);
    return problems;
  },
  // One dollar per page: with the script, the reference dollar is named
  // exactly once (with its date and whose it is, from /dolar.json), and no
  // other rate is written anywhere; without it, the page names no rate and
  // converts nothing, and its rate line sends the reader to /dolar.
  oneDollar: () => {
    const scripted = document.documentElement.classList.contains('js');
    const text = document.body.innerText;
    const rates = text.match(/\$ [\d.]+(,\d+)? por dólar/g) || [];
    const line = document.querySelectorAll('.rate-line');
    const problems = [];
    if (line.length !== 1) problems.push(`${line.length} reference-dollar lines`);
    // A month's report names its own month's dollar, script or not; /dolar
    // names the reference dollar in its text too.
    const own = line.length === 1 && !line[0].hasAttribute('data-dolar-line');
    const named = location.pathname === '/dolar' ? 1 : 0;
    const written = own ? 1 : (scripted ? 1 : 0) + named;
    if (rates.length !== written) problems.push(`${rates.length} rates written: ${rates.join(' | ')}`);
    const prices = [...document.querySelectorAll('.card, .price-box, .compare-table, #cotizaciones')].map((el) => el.innerText).join(' ');
    if (/con el dólar a|por dólar/.test(prices)) problems.push('a conversion at another rate');
    if ((scripted || own) && line.length === 1 && !/del \d\d\/\d\d\/\d{4} \(/.test(line[0].textContent)) problems.push('the dollar without its date and name');
    // (A page carrying comparison picks carries them on this link too.)
    if (!scripted && !own && line.length === 1 && !line[0].querySelector('a[href^="/dolar"]')) problems.push('no way to the reference dollar without the script');
    const empty = [...document.querySelectorAll('data[data-to]')].filter((el) => el.textContent === '');
    if (scripted && empty.length) problems.push(`${empty.length} conversions left empty`);
    const shown = [...document.querySelectorAll('[data-dolar]')].filter((el) => !el.hidden);
    if (!scripted && shown.length) problems.push(`${shown.length} conversions shown without their figures`);
    return problems;
  },
  // The figures the script writes are exactly the site's: a dollar price's
  // pesos are the API's priceArs (decided exactly by the generator), and a
  // peso price's dollars are the quotient at /dolar.json's rate, computed
  // here with exact integers, rounded to whole dollars, half away from zero.
  conversionsExact: async () => {
    if (!document.documentElement.classList.contains('js')) return [];
    const problems = [];
    const id = decodeURIComponent(location.pathname.split('/')[2]);
    const record = await (await fetch('/api/v1/vehicles/' + encodeURIComponent(id))).json();
    const rate = String((await (await fetch('/dolar.json')).json()).arsPerUsd);
    const lead = document.querySelector('.price-main data[data-to]');
    if (!lead) return ['no conversion in the price box'];
    const digits = Number(lead.textContent.replace(/[^\d]/g, ''));
    if (lead.getAttribute('data-to') === 'ARS') {
      if (digits !== record.data.vehicle.priceArs) problems.push(`pesos ${lead.textContent}, the API says ${record.data.vehicle.priceArs}`);
    } else {
      const [w, f = ''] = rate.split('.');
      const [aw, af = ''] = lead.value.split('.');
      // amount / rate = (a / 10^af) / (r / 10^f) = a·10^f / (r·10^af)
      const num = BigInt(aw + af) * 10n ** BigInt(f.length);
      const den = BigInt(w + f) * 10n ** BigInt(af.length);
      const q = num / den, rest = num % den;
      const whole = rest * 2n >= den ? q + 1n : q;
      if (BigInt(digits) !== whole) problems.push(`dollars ${lead.textContent}, expected US$ ${whole} at ${rate}`);
    }
    return problems;
  },
  // Invented prices say so on every page, above the fold.
  syntheticNotice: () => {
    const notice = document.querySelector('.synthetic-notice');
    if (!notice) return ['no synthetic notice'];
    const box = notice.getBoundingClientRect();
    const problems = [];
    if (box.height === 0 || box.top > window.innerHeight) problems.push(`the synthetic notice is at ${Math.round(box.top)} px`);
    if (document.querySelector('script[type="application/ld+json"]')?.textContent.includes('"Offer"')) problems.push('invented prices published as an Offer');
    if (!document.querySelector('meta[property="og:description"]').content.startsWith('Datos de ejemplo')) problems.push('og:description does not say the data is invented');
    return problems;
  },
  // The usual-price bands, in words, wherever the comparison is known.
  bands: () => {
    const words = ['Muy buen precio', 'Buen precio', 'Precio normal', 'Caro'];
    const bands = [...document.querySelectorAll('.band')];
    const problems = bands.filter((b) => !words.includes(b.textContent.trim())).map((b) => `a band reads ${b.textContent.trim()}`);
    if (bands.length === 0) problems.push('no band');
    return problems;
  },
  // Every headline price says what freight and paperwork do.
  fees: () => {
    const prices = document.querySelectorAll('.card .price, .price-box .price-main').length;
    const fees = [...document.querySelectorAll('.card .fees, .price-box .fees')]
      .filter((el) => /^(Incluye flete y gastos|No incluye flete y gastos|No informa si incluye flete y gastos)/.test(el.textContent.trim())).length;
    return prices > 0 && fees === prices ? [] : [`${fees} fees lines for ${prices} prices`];
  },
  // A version quoted in pesos leads in pesos.
  pesosLead: () => {
    const text = document.querySelector('.price-main .amount').textContent.trim();
    return /^\$ \d/.test(text) ? [] : [`a peso-quoted version leads with ${text}`];
  },
  // Drops, opportunities and new opportunities are good news: never red.
  goodNewsNotRed: () => {
    const problems = [];
    for (const el of document.querySelectorAll('.change, .badges li, .badge')) {
      const [r, g, b] = getComputedStyle(el).color.match(/\d+/g).map(Number);
      if (r > g && r > b) problems.push(`good news in red: ${el.textContent.trim().slice(0, 40)}`);
    }
    return problems;
  },
  // Plain es-AR: no "cotización" (the exchange rate, to an Argentine), no
  // catalogue-at-today's-rate jargon, one cause per new opportunity.
  plainWords: () => {
    const text = document.querySelector('main').innerText;
    const problems = [];
    if (/cotizaci[oó]n/i.test(text)) problems.push('says "cotización"');
    if (/precio de catálogo al tipo de cambio/i.test(text)) problems.push('says "precio de catálogo al tipo de cambio"');
    if (/precio de lista/i.test(text)) problems.push('says "precio de lista" (the brand\'s price, to an Argentine)');
    if (/subió su precio habitual o reunió/.test(text)) problems.push('a new opportunity lists every possible cause');
    return problems;
  },
  // The report's charts: every image loaded (an SVG that does not parse
  // has no natural size), the first as wide as its column up to 720 px.
  reportCharts: () => {
    const problems = [];
    const images = [...document.querySelectorAll('.report-chart img')];
    if (images.length < 2) problems.push(`${images.length} charts`);
    for (const img of images) {
      if (img.complete && img.naturalWidth === 0) problems.push(`${img.getAttribute('src')} did not load`);
    }
    const first = images[0];
    if (first) {
      const main = document.querySelector('main');
      const style = getComputedStyle(main);
      const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = first.getBoundingClientRect().width;
      if (width < Math.min(column, 720) * 0.98 - 2) problems.push(`the chart is ${Math.round(width)} px of ${Math.round(column)}`);
    }
    return problems;
  },
  // One chart shown, as wide as its column allows, with the usual price and
  // the 180-day low drawn, and no two of its labels overlapping.
  chart: () => {
    const problems = [];
    const shown = [...document.querySelectorAll('svg.chart')].filter((svg) => svg.getBoundingClientRect().width > 0);
    if (shown.length !== 1) return [`${shown.length} charts shown`];
    const svg = shown[0];
    const main = document.querySelector('main');
    const style = getComputedStyle(main);
    const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const limit = parseFloat(getComputedStyle(svg).maxWidth);
    const expected = Number.isFinite(limit) ? Math.min(column, limit) : column;
    const width = svg.getBoundingClientRect().width;
    if (width < expected * 0.98) problems.push(`the chart is ${Math.round(width)} px of ${Math.round(expected)}`);
    if (!svg.querySelector('line.typical') || !svg.querySelector('line.lowest')) problems.push('the usual price or the low is not drawn');
    const boxes = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i].box;
        const b = boxes[j].box;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
          problems.push(`chart labels collide: ${boxes[i].text} and ${boxes[j].text}`);
        }
      }
    }
    return problems;
  },
  homeSearch: () => (document.querySelector('main form[action="/buscar"] input[name="q"]') ? [] : ['no search box']),
  // Every card can be added to a comparison.
  compareBoxes: () => {
    const cards = document.querySelectorAll('.card').length;
    const picks = document.querySelectorAll('.card a.pick-add[data-pick]').length;
    return cards > 0 && picks === cards ? [] : [`${picks} compare controls for ${cards} cards`];
  },
  // The compared versions' names stay in view while the rows scroll past,
  // and each row's best value is marked in words.
  stickyNames: () => {
    const table = document.querySelector('table.compare-table');
    const row = [...table.querySelectorAll('tbody tr')][Math.floor(table.querySelectorAll('tbody tr').length / 2)];
    window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2);
    const head = table.querySelector('thead th:last-child').getBoundingClientRect();
    const problems = [];
    if (head.top < -1 || head.top > 2) problems.push(`the names scrolled to ${Math.round(head.top)} px`);
    window.scrollTo(0, 0);
    if (table.querySelectorAll('td.best .best-mark').length < 2) problems.push('no best value marked');
    return problems;
  },
  // A page with picks shows the bar, at the bottom of the screen, in reach
  // of a thumb, naming how many are picked.
  compareBar: () => {
    const bar = document.querySelector('#barra-comparar .compare-go');
    if (!bar) return ['no compare bar'];
    const box = bar.getBoundingClientRect();
    const problems = [];
    if (box.bottom > window.innerHeight || box.top < window.innerHeight - 160) problems.push(`the compare bar is at ${Math.round(box.top)} to ${Math.round(box.bottom)} px of ${window.innerHeight}`);
    if (!/^Comparar \(\d\)$/.test(bar.textContent.trim())) problems.push(`the bar reads ${bar.textContent.trim()}`);
    return problems;
  },
  dealFilters: () => {
    const form = document.querySelector('form.deal-filters');
    const ok = form && form.querySelector('input[name="kind"]') && form.querySelector('select[name="window"]')
      && form.querySelector('select[name="make"]') && form.querySelector('input[name="maxPriceArs"]')
      && document.querySelectorAll('.window-choice a').length === 2;
    return ok ? [] : ['no filters or window choice'];
  },
};

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
// With the script, a page's conversions come from /dolar.json after load:
// wait for its rate line to name the rate. True when it did (or the page
// has none).
async function dollarShown(page) {
  return page.waitForFunction(() => {
    const line = document.querySelector('.rate-line');
    return !line || /por dólar/.test(line.textContent);
  }, null, { timeout: 10000 }).then(() => true, () => false);
}

// The peso figure of each search card, in order, as a buyer reads it: a
// peso lead, or a dollar quote's pesos (with the script, the figure it
// wrote; without it, none is shown, so the amount the page carries at the
// reference dollar, `rate`, is what the order must follow).
async function cardPesos(page, rate) {
  await dollarShown(page);
  return page.locator('#lista .card').evaluateAll((cards, rate) => cards.map((card) => {
    const lead = card.querySelector('.amount').textContent;
    if (lead.startsWith('$')) return Number(lead.replace(/[^\d]/g, ''));
    const data = card.querySelector('data[data-to="ARS"]');
    if (data.textContent) return Number(data.textContent.replace(/[^\d]/g, ''));
    return Math.round(Number(data.value) * rate);
  }), rate);
}

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
    if (viewport.javaScriptEnabled !== false && !(await dollarShown(page))) failures.push(`${where}: the reference dollar never came`);
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
    for (const words of spec.says || []) {
      if (!(await page.locator('main').innerText()).includes(words)) failures.push(`${where}: does not say ${JSON.stringify(words)}`);
    }
    // The page's main answer on the first screen of a 390 × 844 phone.
    if (viewport.label === 'phone') {
      for (const selector of spec.answer || []) {
        const box = await page.evaluate((sel) => {
          const el = document.querySelector(sel);
          if (!el) return null;
          const rect = el.getBoundingClientRect();
          return { top: Math.round(rect.top + window.scrollY), bottom: Math.round(rect.bottom + window.scrollY), height: window.innerHeight };
        }, selector);
        if (!box) failures.push(`${where}: no ${selector}`);
        else {
          console.log(`    ${spec.name}: ${selector} at ${box.top} to ${box.bottom} px of ${box.height}`);
          if (box.bottom > box.height) failures.push(`${where}: ${selector} ends at ${box.bottom} px, below the first screen (${box.height})`);
        }
      }
    }
    for (const check of [...EVERY_PAGE, ...(spec.checks || [])]) {
      for (const problem of await page.evaluate(PAGE_CHECKS[check])) failures.push(`${where}: ${check}: ${problem}`);
    }
    for (const error of errors) failures.push(`${where}: console error: ${error}`);
    await page.screenshot({ path: `${shots}/${spec.name}-${viewport.label}.png`, fullPage: true });
    console.log(`${failures.length ? '…' : 'ok'}  ${where}`);
    await page.close();
  }
  await context.close();
}
// The forms, with the script and without: the model page's ticked boxes
// open a comparison, the search form's submission shows results (with a
// budget in pesos too, and a city), the home page's search box searches,
// the alert forms build a feed's address, two ticked cards of a deal list
// are compared, and a deal list's window is chosen.
const rate = (await (await fetch(base + '/dolar.json')).json()).arsPerUsd;
for (const javaScriptEnabled of [true, false]) {
  const where = javaScriptEnabled ? 'script' : 'no-script';
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  try {
    // Two versions of one model page, picked and compared from the bar.
    await page.goto(base + '/modelos/toyota/hilux', { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation(), page.locator('a.pick-add').nth(0).click()]);
    await Promise.all([page.waitForNavigation(), page.locator('a.pick-add').nth(1).click()]);
    if (await page.locator('a.pick-add.is-picked').count() !== 2) failures.push(`model picks (${where}): not both shown as picked at ${page.url()}`);
    await Promise.all([page.waitForNavigation(), page.click('#barra-comparar .compare-go')]);
    const columns = await page.locator('table.compare-table thead th').count();
    if (columns !== 3) failures.push(`compare from a model (${where}): ${columns} columns, expected 3`);
    // Two versions picked on two different pages: the Hilux on its own
    // page, then the Ranger on its model's page reached through the site's
    // links, which carry the first pick along.
    await page.goto(base + `/versiones/${hilux}`, { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation(), page.click(`#elegir-${hilux}`)]);
    await Promise.all([page.waitForNavigation(), page.click('.site-header a[href^="/modelos"]')]);
    await Promise.all([page.waitForNavigation(), page.click('main a[href^="/modelos/ford/ranger"]')]);
    await Promise.all([page.waitForNavigation(), page.click(`#elegir-${ranger}`)]);
    const bar = (await page.locator('#barra-comparar .compare-go').textContent()).trim();
    if (bar !== 'Comparar (2)') failures.push(`picks across pages (${where}): the bar reads ${bar} at ${page.url()}`);
    await Promise.all([page.waitForNavigation(), page.click('#barra-comparar .compare-go')]);
    const heads = await page.locator('table.compare-table thead th').allTextContents();
    if (heads.length !== 3 || !heads[1].includes('Hilux') || !heads[2].includes('Ranger')) {
      failures.push(`picks across pages (${where}): compared ${heads.join(' | ')} at ${page.url()}`);
    }
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    await page.selectOption('#f-make', 'Toyota');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const cards = await page.locator('#lista li').count();
    if (cards < 1) failures.push(`search form (${where}): no results at ${page.url()}`);
    // A search sent from a page carrying two picks keeps both.
    await page.goto(base + `/buscar?comparar=${hilux},${ranger}`, { waitUntil: 'load' });
    if (await page.locator('#filtros').getAttribute('open') === null) await page.click('#filtros > summary');
    await page.selectOption('#f-make', 'Toyota');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const kept = (await page.locator('#barra-comparar .compare-go').textContent()).trim();
    if (kept !== 'Comparar (2)') failures.push(`picks through the search form (${where}): the bar reads ${kept} at ${page.url()}`);
    // A budget in pesos, typed key by key as an Argentine types it.
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    await page.locator('#f-max-ars').pressSequentially('40.000.000');
    await page.selectOption('#f-sort', 'price_desc');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const cheap = await page.locator('#lista li').count();
    const status = await page.locator('#estado').textContent();
    if (cheap < 1 || !/versi/.test(status)) failures.push(`peso budget (${where}): ${status} at ${page.url()}`);
    if (await page.inputValue('#f-max-ars') !== '40.000.000') failures.push(`peso budget (${where}): the field lost what was typed`);
    // Every card within the budget in pesos, dearest first, as shown.
    const pesos = await cardPesos(page, rate);
    if (pesos.some((p) => p > 40000000)) failures.push(`peso budget (${where}): over budget ${pesos}`);
    if (pesos.some((p, i) => i > 0 && p > pesos[i - 1])) failures.push(`peso budget (${where}): out of order ${pesos}`);
    // A typo in the amount stays in its field, with the message beside it.
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    await page.locator('#f-max-ars').pressSequentially('-5');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const invalid = await page.getAttribute('#f-max-ars', 'aria-invalid');
    const described = await page.getAttribute('#f-max-ars', 'aria-describedby');
    const message = await page.locator('#error-maxPriceArs').textContent().catch(() => '');
    if (invalid !== 'true' || !described.includes('error-maxPriceArs') || !/monto/.test(message)
      || await page.inputValue('#f-max-ars') !== '-5') {
      failures.push(`refused budget (${where}): ${invalid} ${described} ${message}`);
    }
    // The home page's search box; what was typed is in the search form.
    await page.goto(base + '/', { waitUntil: 'load' });
    await page.fill('#h-q', 'hilux');
    await Promise.all([page.waitForNavigation(), page.click('form.home-search button[type="submit"]')]);
    if (await page.locator('#lista li').count() < 1) failures.push(`home search (${where}): no results at ${page.url()}`);
    if (await page.inputValue('#f-q') !== 'hilux') failures.push(`home search (${where}): the search form lost "hilux"`);
    // Following the search: the page names its feed, which a reader gets.
    for (const path of ['/buscar?q=hilux', '/ofertas/bajas']) {
      await page.goto(base + path, { waitUntil: 'load' });
      const href = await page.getAttribute('link[rel="alternate"][type="application/atom+xml"]', 'href');
      const shown = await page.locator('a.follow').count();
      const address = href && new URL(href, base + path);
      const feed = address ? await page.request.get(base + address.pathname + address.search) : null;
      const body = feed ? await feed.text() : '';
      if (!shown || !feed || feed.status() !== 200 || !feed.headers()['content-type'].startsWith('application/atom+xml')
        || !body.includes('<entry>') || !feed.headers().etag) {
        failures.push(`follow (${where}): ${path}: ${href} ${feed && feed.status()}`);
      }
    }
    // An alert at a price on a version page (pesos) and on a search: the
    // form builds the feed's address (shown with the script, opened
    // without it), and the feed is Atom with the bound in its own address.
    for (const [path, typed] of [[`/versiones/${pesoCut}`, '25.000.000'], ['/buscar?q=hilux', '60.000.000']]) {
      await page.goto(base + path, { waitUntil: 'load' });
      await page.locator('form.alert-form input[name="hasta"]').pressSequentially(typed);
      let address;
      if (javaScriptEnabled) {
        await page.click('form.alert-form button[type="submit"]');
        await page.locator('.alert-url a').waitFor();
        address = await page.locator('.alert-url a').getAttribute('href');
      } else {
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/feed.xml')),
          page.click('form.alert-form button[type="submit"]'),
        ]);
        address = response.url();
      }
      const url = address && new URL(address, base + path);
      const feed = url ? await page.request.get(base + url.pathname + url.search) : null;
      const body = feed ? await feed.text() : '';
      const amount = typed.replace(/\./g, '');
      if (!url || !/\/feed\.xml$/.test(url.pathname) || url.searchParams.get('hasta') === null
        || !feed || feed.status() !== 200 || !feed.headers()['content-type'].startsWith('application/atom+xml')
        || !body.includes(`hasta=${amount}</id>`)) {
        failures.push(`alert form (${where}): ${path}: ${address} ${feed && feed.status()}`);
      }
    }
    // A city among the further filters, chosen on the form.
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    if (await page.locator('#filtros').getAttribute('open') === null) await page.click('#filtros > summary');
    const more = page.locator('details.more-filters');
    if (await more.getAttribute('open') === null) await more.locator('summary').click();
    await page.selectOption('#f-location', 'Córdoba');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const located = await page.locator('#lista li').count();
    if (located < 1 || !new URL(page.url()).searchParams.get('location')) {
      failures.push(`city filter (${where}): ${located} results at ${page.url()}`);
    }
    // Searches that forgive: a misspelling, an alias, a body type.
    for (const [typed, meant] of [['corola', 'Corolla'], ['vw amarok', 'Amarok'], ['camioneta', '']]) {
      await page.goto(base + '/', { waitUntil: 'load' });
      await page.fill('#h-q', typed);
      await Promise.all([page.waitForNavigation(), page.click('form.home-search button[type="submit"]')]);
      const said = await page.locator('#estado').textContent();
      const titles = await page.locator('#lista .card-title').allTextContents();
      if (!said.includes('¿Quisiste decir') || titles.length < 1 || !titles.every((t) => t.includes(meant))) {
        failures.push(`forgiving search (${where}): ${typed}: ${said} ${titles.slice(0, 2)}`);
      }
    }
    // Every field of the search form, filled, sent and reloaded: each comes
    // back as it was asked, and the order shown is the order applied.
    const filled = { '#f-q': 'toyota', '#f-min-ars': '10.000.000', '#f-max-ars': '90.000.000', '#f-seats': '5', '#f-airbags': '2' };
    const chosen = { '#f-make': 'Toyota', '#f-sort': 'price_desc', '#f-type': 'Pickup', '#f-fuel': 'Diesel', '#f-aeb': 'true' };
    await page.goto(base + '/buscar', { waitUntil: 'load' });
    await page.click('.more-filters > summary');
    for (const [field, value] of Object.entries(filled)) await page.fill(field, value);
    for (const [field, value] of Object.entries(chosen)) await page.selectOption(field, value);
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    for (const round of ['sent', 'reloaded']) {
      if (round === 'reloaded') await page.reload({ waitUntil: 'load' });
      for (const [field, value] of Object.entries({ ...filled, ...chosen })) {
        const shown = await page.inputValue(field);
        if (shown !== value) failures.push(`search form ${round} (${where}): ${field} shows ${JSON.stringify(shown)}, asked ${JSON.stringify(value)}`);
      }
      const prices = await cardPesos(page, rate);
      if (prices.length < 2 || prices.some((p, i) => i > 0 && p > prices[i - 1])) failures.push(`search form ${round} (${where}): not dearest first as shown: ${prices}`);
    }
    // A deal list filtered, then re-sorted from the search form: still the
    // same list (its kind and period kept), in the order shown.
    await page.goto(base + '/ofertas/bajas', { waitUntil: 'load' });
    await page.click('.deal-filters-box > summary');
    await page.selectOption('#f-window', '7d');
    await Promise.all([page.waitForNavigation(), page.click('form.deal-filters button[type="submit"]')]);
    await page.reload({ waitUntil: 'load' });
    const dealCount = await page.locator('#lista li').count();
    if (await page.inputValue('#f-kind') !== 'price_drops' || await page.inputValue('#f-sort') !== 'recommended') {
      failures.push(`deal list state (${where}): kind ${await page.inputValue('#f-kind')}, sort ${await page.inputValue('#f-sort')}`);
    }
    // Results first: the filters are folded above them.
    if (await page.getAttribute('details.filters', 'open') !== null) failures.push(`deal list (${where}): the filters are not folded above the results`);
    await page.click('details.filters > summary');
    await page.selectOption('#f-sort', 'price_asc');
    await Promise.all([page.waitForNavigation(), page.click('form.search-form button[type="submit"]')]);
    const resorted = await page.locator('#estado').textContent();
    if (!resorted.startsWith('Bajas de precio de los últimos 7 días: ') || await page.locator('#lista li').count() !== dealCount
      || await page.inputValue('#f-sort') !== 'price_asc') {
      failures.push(`deal list re-sorted (${where}): ${resorted} at ${page.url()}`);
    }
    // The compare form: the IDs typed come back in their field.
    await page.goto(base + '/comparar', { waitUntil: 'load' });
    await page.click('details.by-id > summary');
    await page.fill('#f-ids', `${hilux}, ${ranger}`);
    await Promise.all([page.waitForNavigation(), page.click('form.compare-form button[type="submit"]')]);
    await page.reload({ waitUntil: 'load' });
    if (await page.inputValue('#f-ids') !== `${hilux}, ${ranger}` || await page.locator('table.compare-table thead th').count() !== 3) {
      failures.push(`compare form reloaded (${where}): ${await page.inputValue('#f-ids')}`);
    }
    // Two cards of a deal list, compared.
    await page.goto(base + '/ofertas', { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation(), page.locator('.card a.pick-add').nth(0).click()]);
    await Promise.all([page.waitForNavigation(), page.locator('.card a.pick-add').nth(1).click()]);
    await Promise.all([page.waitForNavigation(), page.click('#barra-comparar .compare-go')]);
    const picked = await page.locator('table.compare-table thead th').count();
    if (picked !== 3) failures.push(`compare from cards (${where}): ${picked} columns at ${page.url()}`);
    // A deal list's window and make, filtered.
    await page.goto(base + '/ofertas/bajas', { waitUntil: 'load' });
    await page.click('.deal-filters-box > summary');
    await page.selectOption('#f-window', '3d');
    await Promise.all([page.waitForNavigation(), page.click('form.deal-filters button[type="submit"]')]);
    const heading = await page.locator('#estado').textContent();
    if (!heading.startsWith('Bajas de precio de los últimos 3 días: ')) failures.push(`deal filters (${where}): ${heading} at ${page.url()}`);
    console.log(`${failures.length ? '…' : 'ok'}  forms (${where})`);
  } catch (error) {
    failures.push(`forms (${where}): ${error}`);
  }
  await context.close();
}
// The MCP App of get_vehicle, embedded as hosts embed it: a sandboxed
// frame that asks its host (ui/initialize), then draws the tool result the
// host posts. The view and the result come from the running edge's /mcp.
try {
  const rpc = async (body) => (await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(body),
  })).json();
  const view = await rpc({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://autoprecios/vehicle.html' } });
  const answer = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_vehicle', arguments: { id: pesoCut } } });
  const context = await browser.newContext({ viewport: { width: 420, height: 500 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.setContent('<iframe id="view" sandbox="allow-scripts" style="width:400px;height:440px;border:0"></iframe>');
  await page.evaluate(({ html, result }) => {
    window.addEventListener('message', (event) => {
      const message = event.data;
      if (message && message.method === 'ui/initialize') {
        event.source.postMessage({ jsonrpc: '2.0', id: message.id, result: {
          protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' }, hostCapabilities: {} } }, '*');
      } else if (message && message.method === 'ui/notifications/initialized') {
        event.source.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result }, '*');
      }
    });
    document.getElementById('view').srcdoc = html;
  }, { html: view.result.contents[0].text, result: answer.result });
  const frame = page.frameLocator('#view');
  await frame.locator('h1').waitFor({ timeout: 10000 });
  const title = await frame.locator('h1').textContent();
  const price = await frame.locator('.price').textContent();
  const drawn = await frame.locator('svg polyline').count();
  const band = await frame.locator('.band').textContent();
  if (!title.startsWith('Fiat Cronos') || !/^\$ [\d.]+$/.test(price) || drawn !== 1 || band !== 'Muy buen precio') {
    failures.push(`MCP App: ${title} | ${price} | ${drawn} charts | ${band}`);
  }
  for (const error of errors) failures.push(`MCP App: page error: ${error}`);
  await page.screenshot({ path: `${shots}/mcp-app.png` });
  console.log(`${failures.length ? '…' : 'ok'}  MCP App (get_vehicle)`);
  await context.close();
} catch (error) {
  failures.push(`MCP App: ${error}`);
}
await browser.close();
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
