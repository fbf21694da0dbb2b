/* autoprecios: small conveniences on every page (scroll boxes, the
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

  /* Styles and checks may tell a page whose script ran. */
  document.documentElement.classList.add('js');
  var page = document.body.getAttribute('data-pagina');
  scrollers();
  picks();
  alertForms();
  if (page === 'buscar') { search(); }
  if (page === 'comparar') { compare(); }
}());
