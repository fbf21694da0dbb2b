/* autoprecios: the amounts in the other currency at the reference dollar,
   small conveniences on every page (scroll boxes, the
   comparison picks remembered) and on the search (/buscar) and compare
   (/comparar) forms, and the price alerts' forms. The results themselves come with the page (the server
   fills them in, and the search form as it was sent), so both pages work
   without this file; with it, the forms send clean addresses. No framework, no
   external code, never innerHTML. */
(function () {
  'use strict';

  /* Empty fields are left out of the address: `/buscar?make=Fiat`, not a
     dozen empty parameters. Every field is appended, not set: the
     comparison picks are one hidden field each. */
  function search() {
    var form = document.querySelector('form.search-form');
    if (!form) { return; }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var params = new URLSearchParams();
      var data = new FormData(form);
      data.forEach(function (value, name) {
        if (typeof value === 'string' && value.trim() !== '') { params.append(name, value.trim()); }
      });
      /* The period belongs to a deal list only. */
      if (!data.get('kind')) { params.delete('window'); }
      var text = params.toString();
      window.location.assign('/buscar' + (text ? '?' + text : ''));
    });
  }

  /* RFC 3986 encoding of one ID. */
  function encode(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }
  /* IDs from the address: `ids=a,b` (a comma inside an ID is %2C, so split
     before decoding). */
  function compareIds() {
    var ids = [];
    window.location.search.replace(/^\?/, '').split('&').forEach(function (pair) {
      if (pair.indexOf('ids=') !== 0) { return; }
      pair.slice(4).split(',').forEach(function (raw) {
        var id;
        try { id = decodeURIComponent(raw.replace(/\+/g, ' ')); } catch (e) { id = raw; }
        if (id !== '') { ids.push(id); }
      });
    });
    return ids;
  }
  /* The compared IDs in the field, and typed IDs sent each encoded on its
     own, separated by plain commas. */
  function compare() {
    var form = document.querySelector('form.compare-form');
    if (!form) { return; }
    var field = form.elements.namedItem('ids');
    field.value = compareIds().join(', ');
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var typed = field.value.split(',').map(function (s) { return s.trim(); })
        .filter(function (s) { return s !== ''; });
      window.location.assign('/comparar?ids=' + typed.map(encode).join(','));
    });
  }

  /* A table or code block that is wider than its box scrolls sideways: it
     takes the keyboard focus then, and only then (one tab stop per table
     that scrolls, none for one that fits). */
  function scrollers() {
    var boxes = document.querySelectorAll('.table-wrap, .doc table, pre');
    function mark() {
      Array.prototype.forEach.call(boxes, function (box) {
        if (box.scrollWidth > box.clientWidth + 1) { box.setAttribute('tabindex', '0'); }
        else { box.removeAttribute('tabindex'); }
      });
    }
    mark();
    window.addEventListener('resize', mark);
  }

  /* The comparison picks live in the address (`?comparar=a,b`, see
     src/composed/picks.rs); this only remembers them in the browser, so a
     buyer who opens the site again without them is offered to take them
     back. */
  var KEY = 'autoprecios-comparar';
  function store(value) {
    try {
      if (value) { window.localStorage.setItem(KEY, value); } else { window.localStorage.removeItem(KEY); }
    } catch (e) { /* storage off: the address still has them */ }
  }
  function stored() {
    try { return window.localStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function picks() {
    var query = window.location.search.replace(/^\?/, '').split('&');
    var value = '';
    query.forEach(function (pair) {
      if (pair.indexOf('comparar=') === 0) { value = pair.slice(9); }
    });
    if (document.body.getAttribute('data-pagina') === 'comparar') {
      query.forEach(function (pair) { if (pair.indexOf('ids=') === 0) { value = pair.slice(4); } });
    }
    var bar = document.getElementById('barra-comparar');
    if (!bar) { return; }
    if (value) {
      store(value);
    } else if (bar.childNodes.length === 0 && stored()) {
      var count = stored().split(',').length;
      var url = new URL(window.location.href);
      url.searchParams.delete('comparar');
      var search = url.search ? url.search + '&' : '?';
      var wrap = document.createElement('div');
      wrap.className = 'wrap';
      var line = document.createElement('p');
      line.className = 'compare-bar-line';
      var link = document.createElement('a');
      link.className = 'compare-go';
      link.href = url.pathname + search + 'comparar=' + stored();
      link.textContent = 'Retomar tu comparación (' + count + ')';
      line.appendChild(link);
      wrap.appendChild(line);
      bar.appendChild(wrap);
    }
    document.addEventListener('click', function (event) {
      var link = event.target.closest && event.target.closest('.compare-clear, .pick-add.is-picked');
      /* Emptied, or the last pick removed: nothing to remember. */
      if (link && link.href.indexOf('comparar=') < 0) { store(''); }
    });
  }

  /* An alert at a price (src/composed/alerts.rs) is a feed address: the
     form shows it, as an absolute link to copy into a feed reader, rather
     than opening the feed. Without the script the form opens the feed,
     whose address is the same. Hidden fields (a search's query) come
     first, the price last. */
  function alertForms() {
    var forms = document.querySelectorAll('form.alert-form');
    Array.prototype.forEach.call(forms, function (form) {
      form.addEventListener('submit', function (event) {
        var shown = form.querySelector('.alert-url');
        if (!shown) { return; }
        event.preventDefault();
        var params = new URLSearchParams();
        new FormData(form).forEach(function (value, name) {
          var text = String(value).trim();
          if (text !== '') { params.append(name, text); }
        });
        var url = new URL(form.getAttribute('action'), window.location.href);
        url.search = params.toString();
        var link = shown.querySelector('a');
        link.href = url.href;
        link.type = 'application/atom+xml';
        link.textContent = url.href;
        shown.hidden = false;
      });
    });
  }

  /* A decimal as written ("1455.28") as an integer and its places:
     {n: 145528n, places: 2}; null for anything else. */
  function decimal(text) {
    var parts = /^(\d+)(?:\.(\d+))?$/.exec(String(text));
    if (!parts) { return null; }
    var places = parts[2] ? parts[2].length : 0;
    return { n: BigInt(parts[1] + (parts[2] || '')), places: places };
  }

  function pow10(places) { return BigInt('1' + '0'.repeat(places)); }

  /* `amount` converted `to` ARS or USD at `rate`, exactly: the decimal
     product (or quotient) rounded to whole units, half away from zero, as
     the site computes the peso price of a dollar quote; then written as
     the site writes a price (`$ 95.320.840`, `US$ 45.000`). */
  function converted(amount, to, rate) {
    var a = decimal(amount), r = decimal(rate);
    if (!a || !r || r.n === 0n) { return null; }
    var num = to === 'ARS' ? a.n * r.n : a.n * pow10(r.places);
    var den = to === 'ARS' ? pow10(a.places + r.places) : r.n * pow10(a.places);
    var whole = ((2n * num + den) / (2n * den)).toString();
    var grouped = whole.replace(/\B(?=(\d{3})+$)/g, '.');
    return (to === 'ARS' ? '$ ' : 'US$ ') + grouped;
  }

  /* The reference dollar: a page carries each conversion as the amount it
     converts (<data data-to="ARS" value="65500">) and names the rate
     nowhere, so that it stays the same when only the dollar moves; this
     reads the rate from /dolar.json, writes each figure and the rate line,
     and shows what only makes sense with them ([data-dolar]). Without it,
     the rate line sends the reader to /dolar. */
  function dollar() {
    /* A page with a dollar of its own (a month's report) names it itself. */
    var line = document.querySelector('[data-dolar-line]');
    var amounts = document.querySelectorAll('data[data-to]');
    if ((!line && !amounts.length) || typeof BigInt !== 'function' || !window.fetch) { return; }
    fetch('/dolar.json').then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (rate) {
      if (!rate || typeof rate.arsPerUsd !== 'number' || !rate.line) { return; }
      Array.prototype.forEach.call(amounts, function (el) {
        var text = converted(el.value, el.getAttribute('data-to'), rate.arsPerUsd);
        if (text) { el.textContent = text; }
      });
      Array.prototype.forEach.call(document.querySelectorAll('[data-dolar]'), function (el) {
        el.hidden = false;
      });
      if (line) {
        line.textContent = rate.line + ' ';
        var more = document.createElement('a');
        more.href = '/dolar';
        more.textContent = 'Qué es';
        line.appendChild(more);
      }
    }).catch(function () {});
  }

  /* Styles and checks may tell a page whose script ran. */
  document.documentElement.classList.add('js');
  var page = document.body.getAttribute('data-pagina');
  dollar();
  scrollers();
  picks();
  alertForms();
  if (page === 'buscar') { search(); }
  if (page === 'comparar') { compare(); }
}());
