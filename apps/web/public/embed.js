/* global document */
/*
 * Atelier product page embed: put <script async src="https://<instance>/embed.js" data-product="<link token>"></script>
 * where the product should show. It puts the product page's embedded view in a frame right there; the frame
 * keeps the link's rules (password, expiry, revocation), as the page does.
 */
(function () {
  var scripts = document.querySelectorAll('script[data-product]:not([data-embedded])');
  for (var i = 0; i < scripts.length; i++) {
    var script = scripts[i];
    var token = script.getAttribute('data-product') || '';
    if (!/^[A-Za-z0-9]{16,64}$/.test(token)) continue;
    script.setAttribute('data-embedded', '');
    var frame = document.createElement('iframe');
    frame.src = new URL('/share/' + token + '/product?embed=1', script.src).href;
    frame.title = script.getAttribute('data-title') || 'Product';
    frame.width = script.getAttribute('data-width') || '640';
    frame.height = script.getAttribute('data-height') || '720';
    frame.loading = 'lazy';
    frame.allow = 'fullscreen; xr-spatial-tracking';
    frame.setAttribute('allowfullscreen', '');
    frame.style.border = '0';
    frame.style.maxWidth = '100%';
    script.parentNode.insertBefore(frame, script);
  }
})();
