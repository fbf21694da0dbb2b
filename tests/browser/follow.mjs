// Following a search across a new snapshot, as a reader does: a phone-sized
// browser opens a deal list, finds its feed (<link rel="alternate">) and
// reads it (`before`, remembered in STATE); after the edge has loaded the
// next snapshot, it opens the same page again and reads the same feed
// (`after`): the feed has a new ETag and entries the first reading had not
// seen (new or updated), and the page still names the same feed. An alert
// feed at a price read both times keeps its crossings' IDs.
//   node follow.mjs BASE before|after STATE
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';

const [base, phase, state] = process.argv.slice(2);
const path = '/buscar?kind=price_drops&window=1d';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
await page.goto(base + path, { waitUntil: 'load' });
const href = await page.getAttribute('link[rel="alternate"][type="application/atom+xml"]', 'href');
const follow = await page.locator('a.follow').getAttribute('href');
const address = new URL(href, base + path);
const feed = await page.request.get(base + address.pathname + address.search);
const body = await feed.text();
const entries = [...body.matchAll(/<entry>[\s\S]*?<id>([^<]*)<\/id>[\s\S]*?<updated>([^<]*)<\/updated>/g)]
  .map((m) => `${m[1]} ${m[2]}`);
await browser.close();
// An alert at a price, as a reader keeps it: the first version by name at
// its own dollar price today (so the feed has an entry). Its crossings keep
// their IDs when the next snapshot comes.
let alert = phase === 'before' ? null : JSON.parse(readFileSync(state, 'utf8')).alert;
if (alert === null) {
  const first = await (await fetch(`${base}/api/v1/vehicles?sort=name&limit=1`)).json();
  const vehicle = first.data.vehicles[0];
  alert = { url: `${new URL(vehicle.url).pathname}/feed.xml?hastaUsd=${vehicle.currentPriceUsd}` };
}
const alertBody = await (await fetch(base + alert.url)).text();
const alertIds = [...alertBody.matchAll(/<entry>\s*<id>([^<]*)<\/id>/g)].map((m) => m[1]);
const reading = { href, follow, etag: feed.headers().etag, entries, alert: { url: alert.url, ids: alertIds } };
if (feed.status() !== 200 || entries.length === 0) {
  console.error(`follow ${phase}: ${href} answered ${feed.status()} with ${entries.length} entries`);
  process.exit(1);
}
if (phase === 'before') {
  writeFileSync(state, JSON.stringify(reading));
  console.log(`ok  follow: ${path} names ${href}; ${entries.length} entries, ETag ${reading.etag}`);
} else {
  const first = JSON.parse(readFileSync(state, 'utf8'));
  const unseen = entries.filter((entry) => !first.entries.includes(entry));
  const problems = [];
  if (href !== first.href) problems.push(`the page names another feed: ${href}, was ${first.href}`);
  if (reading.etag === first.etag) problems.push(`the feed kept its ETag ${first.etag}`);
  if (unseen.length === 0) problems.push('no new or updated entry');
  if (first.alert.ids.length === 0) problems.push(`the alert ${alert.url} had no entry`);
  const crossings = first.alert.ids.filter((id) => !id.endsWith('-ya'));
  const lost = crossings.filter((id) => !alertIds.includes(id));
  if (lost.length > 0) problems.push(`the alert ${alert.url} lost or renamed ${lost.join(', ')}`);
  if (problems.length > 0) {
    console.error(`follow after a new snapshot: ${problems.join('; ')}`);
    process.exit(1);
  }
  console.log(`ok  follow after a new snapshot: ETag ${first.etag} -> ${reading.etag}, ${unseen.length} new or updated of ${entries.length} entries; the alert ${alert.url} kept its ${crossings.length} crossings' IDs of ${alertIds.length} entries`);
}
