// The tree's _headers as Netlify reads it: parsed by netlify-cli's own
// parser (@netlify/headers-parser) and matched with its own path patterns,
// for every public file of the manifest. netlify dev's static server sets
// its own Content-Type and Cache-Control over these, so this is where they
// are checked: each file gets at most one value of each header, the
// manifest's content type whenever a CDN could not tell it from the name
// (extension-less API files, Atom feeds, Parquet, gzip, CSV, SHA256SUMS),
// and CORS on every API file, download and feed.
//   node tests/cdn/headers_check.mjs NETLIFY_NODE_MODULES TREE
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [modules, tree] = process.argv.slice(2)
const parser = await import(pathToFileURL(join(modules, '@netlify/headers-parser/lib/index.js')).href)
const { headers: rules, errors } = await parser.parseAllHeaders({
  headersFiles: [join(tree, 'public/_headers')],
  configHeaders: [],
  minimal: false,
})
if (errors.length > 0) {
  console.error('FAIL  _headers has errors:', errors.map(String))
  process.exit(1)
}
// Names whose type any static server knows from the extension.
const known = {
  html: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml', txt: 'text/plain; charset=utf-8',
  png: 'image/png', ico: 'image/x-icon', webmanifest: 'application/manifest+json',
}
const manifest = JSON.parse(readFileSync(join(tree, 'manifest.json'), 'utf8'))
let failures = 0
let checked = 0
const fail = (what) => { failures += 1; console.error(`FAIL  ${what}`) }
for (const entry of manifest.files) {
  if (!entry.file.startsWith('public/') || entry.url.includes('?')) continue
  const path = entry.url
  if (path === '/_headers' || path === '/_redirects') continue
  const values = {}
  for (const rule of rules) {
    if (!rule.forRegExp.test(path)) continue
    for (const [name, value] of Object.entries(rule.values)) {
      const key = name.toLowerCase()
      if (key in values) fail(`${path}: ${name} set by two patterns`)
      values[key] = value
    }
  }
  const name = entry.file.split('/').pop()
  const extension = name.includes('.') ? name.split('.').pop() : ''
  const type = values['content-type']
  if (type !== undefined && type.split(';')[0] !== entry.contentType.split(';')[0]) {
    fail(`${path}: _headers says ${type}, the manifest ${entry.contentType}`)
  }
  if (type === undefined && known[extension] === undefined) {
    fail(`${path}: no Content-Type in _headers for ${entry.contentType}`)
  }
  const shared = /^\/(api|datos|feeds)\//.test(path) || /\.(md|xml|csv)$/.test(path) && !path.endsWith('sitemap.xml')
  if (shared && values['access-control-allow-origin'] !== '*') fail(`${path}: no CORS`)
  if (values['x-content-type-options'] !== 'nosniff') fail(`${path}: no security headers`)
  checked += 1
}
if (failures > 0) process.exit(1)
console.log(`ok    _headers gives ${checked} public files one type each, CORS and security headers`)
