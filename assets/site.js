/* autoprecios: small conveniences on the search (/buscar) and compare
   (/comparar) forms. The results themselves come with the page (the server
   fills them in, and the search form as it was sent), so both pages work
   without this file; with it, the forms send clean addresses. No framework, no
   external code, never innerHTML. */
(function () {
  'use strict';

  /* Empty fields are left out of the address: `/buscar?make=Fiat`, not a
     dozen empty parameters. */
  function search() {
    var form = document.querySelector('form.search-form');
    if (!form) { return; }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var params = new URLSearchParams();
      var data = new FormData(form);
      data.forEach(function (value, name) {
        if (typeof value === 'string' && value.trim() !== '') { params.set(name, value.trim()); }
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

  var page = document.body.getAttribute('data-pagina');
  if (page === 'buscar') { search(); }
  if (page === 'comparar') { compare(); }
}());
