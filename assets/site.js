/* autoprecios: search (/buscar) and compare (/comparar) from the public API
   on the same origin. No framework, no external code: every node is built
   with createElement and textContent, never innerHTML, because catalogue
   text is untrusted. Every other page works without this file. */
(function () {
  'use strict';

  var SEARCH_PARAMS = ['q', 'make', 'model', 'type', 'fuel', 'transmission', 'drivetrain',
    'minPriceUsd', 'maxPriceUsd', 'minSeats', 'minAirbags', 'aeb', 'hasSpecs',
    'minDiscountPct', 'opportunitiesOnly', 'sort', 'offset'];
  var UNKNOWN = 'sin dato';
  var UNKNOWN_VALUE = 'sin dato / desconocido';

  /* Formats: the same rules as the pages (es-AR, Argentine time). */
  function group(digits) {
    return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  }
  function amount(value) {
    var cents = Math.round(Math.abs(value) * 100);
    var fraction = cents % 100;
    var text = group(String(Math.floor(cents / 100)));
    if (fraction) { text += ',' + (fraction < 10 ? '0' : '') + fraction; }
    return (value < 0 && cents > 0 ? '-' : '') + text;
  }
  function money(value, currency) {
    if (typeof value !== 'number' || !isFinite(value)) { return UNKNOWN; }
    var symbol = currency === 'ARS' ? '$' : 'US$';
    var text = amount(value);
    return text.charAt(0) === '-' ? '-' + symbol + ' ' + text.slice(1) : symbol + ' ' + text;
  }
  function usd(value) { return money(value, 'USD'); }
  /* Two decimals truncated toward zero, like the API's discountPct and dropPct;
     binary noise is cancelled first (4.99 is stored as 4.98999...). */
  function hundredths(value) {
    return Math.trunc(Math.round(Math.abs(value) * 100 * 1e6) / 1e6);
  }
  function percent(value) {
    var h = hundredths(value);
    return (value < 0 && h ? '-' : '') + group(String(Math.floor(h / 100))) + ',' + two(h % 100) + ' %';
  }
  /* The size of a difference whose direction the sentence says. */
  function share(value) {
    return hundredths(value) ? percent(Math.abs(value)) : 'menos de 0,01 %';
  }
  function number(value) {
    var parts = String(Math.abs(value)).split('.');
    return (value < 0 ? '-' : '') + group(parts[0]) + (parts[1] ? ',' + parts[1] : '');
  }
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function dateTime(iso) {
    var time = Date.parse(iso);
    if (isNaN(time)) { return String(iso); }
    var d = new Date(time - 3 * 3600 * 1000);
    return two(d.getUTCDate()) + '/' + two(d.getUTCMonth() + 1) + '/' + d.getUTCFullYear() +
      ' ' + two(d.getUTCHours()) + ':' + two(d.getUTCMinutes());
  }
  function comparisonText(current, c) {
    if (c.sufficientHistory && typeof c.typicalPriceUsd === 'number' && typeof c.discountPct === 'number') {
      /* Direction from whole cents, so a few cents never read as 0,00 %. */
      var cents = Math.round((c.typicalPriceUsd - current) * 100);
      if (cents > 0) { return usd(cents / 100) + ' (' + share(c.discountPct) + ') por debajo de su precio habitual'; }
      if (cents < 0) { return usd(-cents / 100) + ' (' + share(c.discountPct) + ') por encima de su precio habitual'; }
      return 'En su precio habitual';
    }
    var weeks = c.observedWeeks === 1 ? '1 semana observada' : c.observedWeeks + ' semanas observadas';
    return 'Sin historia suficiente para compararlo con su precio habitual (' + weeks + ')';
  }

  /* DOM helpers */
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function link(href, text) {
    var a = el('a', null, text);
    a.href = href;
    return a;
  }
  /* A page address from an API `url`: its path on this origin. */
  function pagePath(url) {
    try { return new URL(url, window.location.href).pathname; } catch (e) { return '/'; }
  }
  function clear(node) {
    while (node.firstChild) { node.removeChild(node.firstChild); }
  }
  function labels() {
    var node = document.getElementById('etiquetas');
    try { return JSON.parse(node ? node.textContent : '{}'); } catch (e) { return {}; }
  }
  function label(table, key, fallback) {
    return (table && Object.prototype.hasOwnProperty.call(table, key)) ? table[key] : fallback;
  }
  /* RFC 3986 encoding, as the API writes it in `url`. */
  function encode(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }
  function getJson(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, status: response.status, body: body };
        });
      });
  }
  /* The API's messages are in English (its contract); the site shows them
     in Spanish. Every message the API writes has a line here; an unknown
     one is shown as it came. */
  var MESSAGES = [
    [/^required$/, 'falta este dato'],
    [/^unknown parameter$/, 'parámetro desconocido'],
    [/^repeated parameter$/, 'parámetro repetido'],
    [/^must be (\d+) to (\d+) characters$/, 'debe tener de $1 a $2 caracteres'],
    [/^must be at most (\d+) characters$/, 'debe tener como máximo $1 caracteres'],
    [/^must be an integer from (\S+) to (\S+)$/, 'debe ser un número entero de $1 a $2'],
    [/^must be a number from (\S+) to (\S+)$/, 'debe ser un número de $1 a $2'],
    [/^must be a number of at least (\S+)$/, 'debe ser un número mayor o igual que $1'],
    [/^must be true or false$/, 'debe ser true o false'],
    [/^must be one of (.+)$/, 'debe ser uno de estos valores: $1'],
    [/^must not be less than minPriceUsd$/, 'no puede ser menor que el precio mínimo'],
    [/^give 2 to 4 vehicle IDs$/, 'elegí de 2 a 4 versiones'],
    [/^duplicate ID (.+)$/, 'versión repetida: $1'],
    [/^no published version with id (.+)$/, 'no hay una versión publicada con el ID $1'],
    [/^must be UTF-8 once percent-decoded$/, 'tiene caracteres no válidos'],
    [/^invalid parameters$/, 'parámetros no válidos'],
    [/^query string too long$/, 'la consulta es demasiado larga'],
  ];
  function spanish(message) {
    for (var i = 0; i < MESSAGES.length; i++) {
      if (MESSAGES[i][0].test(message)) { return message.replace(MESSAGES[i][0], MESSAGES[i][1]); }
    }
    return message;
  }
  /* A parameter by the label of its form field, when the page has one. */
  function fieldName(path) {
    var field = document.querySelector('[name="' + path.replace(/["\\]/g, '') + '"]');
    var text = field && field.id ? document.querySelector('label[for="' + field.id + '"]') : null;
    return text ? text.textContent : path;
  }
  function showError(status, result, apiUrl) {
    clear(status);
    var error = result.body && result.body.error;
    status.appendChild(document.createTextNode(
      result.status === 404 ? 'No encontrado: ' : 'La consulta no es válida: '));
    status.appendChild(document.createTextNode(error && error.message ? spanish(error.message) : 'error ' + result.status));
    if (error && error.details && error.details.length) {
      var list = el('ul');
      error.details.forEach(function (d) {
        list.appendChild(el('li', null, fieldName(d.path) + ': ' + spanish(d.message)));
      });
      status.appendChild(list);
    }
    status.appendChild(document.createTextNode(' '));
    status.appendChild(link(apiUrl, 'Ver la respuesta de la API'));
  }
  function showFailure(status, apiUrl) {
    clear(status);
    status.appendChild(document.createTextNode('No se pudo consultar la API. Probá de nuevo más tarde o abrí la consulta directamente: '));
    status.appendChild(link(apiUrl, apiUrl));
  }

  /* Search */
  function card(v, names) {
    var article = el('article', 'card' + (v.comparison.opportunity ? ' card-oportunidad' : ''));
    var title = el('h3', 'card-title');
    var a = link(pagePath(v.url), v.make + ' ' + v.model + ' ');
    a.appendChild(el('span', 'trim', v.trimDisplay || v.trim));
    title.appendChild(a);
    article.appendChild(title);
    if (v.reasons && v.reasons.length) {
      var badges = el('ul', 'badges');
      v.reasons.forEach(function (r) { badges.appendChild(el('li', 'badge-' + r, label(names.reasons, r, r))); });
      article.appendChild(badges);
    }
    var price = el('p', 'price');
    price.appendChild(el('span', 'amount', usd(v.currentPriceUsd)));
    if (v.bestQuote && v.bestQuote.currency === 'ARS') {
      price.appendChild(document.createTextNode(' '));
      price.appendChild(el('span', 'original', 'cotizado en ' + money(v.bestQuote.price, 'ARS')));
    }
    article.appendChild(price);
    article.appendChild(el('p', 'comparison', comparisonText(v.currentPriceUsd, v.comparison)));
    article.appendChild(el('p', 'meta', v.quoteCount + (v.quoteCount === 1 ? ' cotización' : ' cotizaciones') +
      ' · control del ' + dateTime(v.observedAt)));
    return article;
  }
  function pageLink(query, offset, text) {
    var params = new URLSearchParams(query);
    if (offset > 0) { params.set('offset', String(offset)); } else { params.delete('offset'); }
    var search = params.toString();
    return link('/buscar' + (search ? '?' + search : ''), text);
  }
  function renderResults(data, query, status, names) {
    var list = document.getElementById('lista');
    var pager = document.getElementById('paginas');
    clear(list);
    clear(pager);
    var p = data.pagination;
    if (!p.total) { status.textContent = 'Ninguna versión cumple todos los filtros.'; return; }
    var last = p.offset + data.vehicles.length;
    status.textContent = p.total + (p.total === 1 ? ' versión encontrada' : ' versiones encontradas') +
      (data.vehicles.length ? ' (se muestran de la ' + (p.offset + 1) + ' a la ' + last + ').' : '.');
    data.vehicles.forEach(function (v) {
      var item = el('li');
      item.appendChild(card(v, names));
      list.appendChild(item);
    });
    if (p.offset > 0) { pager.appendChild(pageLink(query, Math.max(0, p.offset - p.limit), '← Anteriores')); }
    if (p.nextOffset !== null && p.nextOffset !== undefined) { pager.appendChild(pageLink(query, p.nextOffset, 'Siguientes →')); }
  }
  function fillForm(form, name, value) {
    var field = form.elements.namedItem(name);
    if (!field) { return; }
    if (field.type === 'checkbox') { field.checked = value === 'true'; } else { field.value = value; }
    /* A filter given in the address stays visible. */
    var more = field.closest ? field.closest('details') : null;
    if (more) { more.open = true; }
  }
  function search() {
    var form = document.querySelector('form.search-form');
    var status = document.getElementById('estado');
    if (!form || !status) { return; }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var params = new URLSearchParams();
      new FormData(form).forEach(function (value, name) {
        if (typeof value === 'string' && value.trim() !== '') { params.set(name, value.trim()); }
      });
      var text = params.toString();
      window.location.assign('/buscar' + (text ? '?' + text : ''));
    });
    var given = new URLSearchParams(window.location.search);
    var query = new URLSearchParams();
    SEARCH_PARAMS.forEach(function (name) {
      var value = given.get(name);
      if (value === null || value.trim() === '') { return; }
      query.set(name, value.trim());
      fillForm(form, name, value.trim());
    });
    var text = query.toString();
    var apiUrl = '/api/v1/vehicles' + (text ? '?' + text : '');
    status.textContent = 'Buscando…';
    getJson(apiUrl).then(function (result) {
      if (!result.ok) { showError(status, result, apiUrl); return; }
      renderResults(result.body.data, query, status, labels());
    }).catch(function () { showFailure(status, apiUrl); });
  }

  /* Compare */
  /* IDs from the query: `ids=a,b` (a comma inside an ID is %2C, so split
     before decoding) or repeated `ids` from the model page's checkboxes. */
  function compareIds() {
    var ids = [];
    window.location.search.replace(/^\?/, '').split('&').forEach(function (pair) {
      if (pair.indexOf('ids=') !== 0) { return; }
      pair.slice(4).split(',').forEach(function (raw) {
        var id;
        try { id = decodeURIComponent(raw.replace(/\+/g, ' ')); } catch (e) { id = raw; }
        if (id !== '' && ids.indexOf(id) === -1) { ids.push(id); }
      });
    });
    return ids;
  }
  function specText(value) {
    if (value === true) { return 'Sí'; }
    if (value === false) { return 'No'; }
    if (value === 'optional') { return 'Opcional'; }
    if (typeof value === 'number') { return number(value); }
    if (value === null || value === undefined) { return UNKNOWN_VALUE; }
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  function specValue(v, key) {
    var specs = v.specs;
    if (!specs || (specs.gaps && Object.prototype.hasOwnProperty.call(specs.gaps, key))) { return UNKNOWN_VALUE; }
    return specText(specs.values ? specs.values[key] : null);
  }
  function compareRows(names) {
    var known = function (x) { return x === null || x === undefined ? UNKNOWN : String(x); };
    var rows = [
      ['Cotización más baja (US$)', function (v) { return usd(v.currentPriceUsd); }],
      ['Cotización más baja (moneda original)', function (v) { return v.bestQuote ? money(v.bestQuote.price, v.bestQuote.currency) : UNKNOWN; }],
      ['Frente al precio habitual', function (v) { return comparisonText(v.currentPriceUsd, v.comparison); }],
      ['Precio habitual', function (v) { return typeof v.comparison.typicalPriceUsd === 'number' ? usd(v.comparison.typicalPriceUsd) : UNKNOWN; }],
      ['Oportunidad', function (v) { return v.comparison.opportunity ? 'Sí' : 'No'; }],
      ['Cotizaciones', function (v) { return String(v.quoteCount); }],
      ['Control de cotizaciones', function (v) { return dateTime(v.observedAt); }],
      ['Carrocería', function (v) { return v.type ? label(names.type, v.type, v.type) : UNKNOWN; }],
      ['Combustible', function (v) { return v.fuel ? label(names.fuel, v.fuel, v.fuel) : UNKNOWN; }],
      ['Transmisión', function (v) { return v.transmission ? label(names.transmission, v.transmission, v.transmission) : UNKNOWN; }],
      ['Asientos', function (v) { return known(v.seats); }],
      ['Airbags', function (v) { return known(v.airbags); }]
    ];
    Object.keys(names.specs || {}).forEach(function (key) {
      if (key === 'seats' || key === 'airbags') { return; }
      rows.push([names.specs[key], function (v) { return specValue(v, key); }]);
    });
    return rows;
  }
  function renderComparison(data, container, names) {
    clear(container);
    var wrap = el('div', 'table-wrap');
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', 'Comparación de versiones');
    wrap.tabIndex = 0;
    var table = el('table', 'compare-table');
    var head = el('thead');
    var headRow = el('tr');
    headRow.appendChild(el('th', null, 'Dato')).setAttribute('scope', 'col');
    data.vehicles.forEach(function (v) {
      var th = el('th');
      th.setAttribute('scope', 'col');
      th.appendChild(link(pagePath(v.url), v.make + ' ' + v.model + ' ' + (v.trimDisplay || v.trim)));
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    table.appendChild(head);
    var body = el('tbody');
    compareRows(names).forEach(function (row) {
      var tr = el('tr');
      var th = el('th', null, row[0]);
      th.setAttribute('scope', 'row');
      tr.appendChild(th);
      data.vehicles.forEach(function (v) {
        var text = row[1](v);
        tr.appendChild(el('td', text === UNKNOWN_VALUE || text === UNKNOWN ? 'unknown' : null, text));
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    wrap.appendChild(table);
    container.appendChild(wrap);
  }
  function compare() {
    var status = document.getElementById('estado');
    var container = document.getElementById('comparacion');
    var form = document.querySelector('form.compare-form');
    if (!status || !container || !form) { return; }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var typed = form.elements.namedItem('ids').value.split(',').map(function (s) { return s.trim(); })
        .filter(function (s) { return s !== ''; });
      window.location.assign('/comparar?ids=' + typed.map(encode).join(','));
    });
    var ids = compareIds();
    form.elements.namedItem('ids').value = ids.join(', ');
    if (ids.length < 2) {
      status.textContent = 'Elegí de 2 a 4 versiones para compararlas.';
      return;
    }
    if (ids.length > 4) {
      ids = ids.slice(0, 4);
      form.elements.namedItem('ids').value = ids.join(', ');
    }
    var canonical = '?ids=' + ids.map(encode).join(',');
    if (window.location.search !== canonical && window.history.replaceState) {
      window.history.replaceState(null, '', window.location.pathname + canonical);
    }
    var apiUrl = '/api/v1/compare' + canonical;
    status.textContent = 'Comparando…';
    getJson(apiUrl).then(function (result) {
      if (!result.ok) { showError(status, result, apiUrl); return; }
      status.textContent = 'Comparación de ' + result.body.data.vehicles.length + ' versiones.';
      renderComparison(result.body.data, container, labels());
    }).catch(function () { showFailure(status, apiUrl); });
  }

  var page = document.body.getAttribute('data-pagina');
  if (page === 'buscar') { search(); }
  if (page === 'comparar') { compare(); }
}());
