/* einlass embed helper: include once on a page that frames /public/event/{id}/frame.
   The frame reports its height (einlass:height) so the iframe grows with the form, and asks to be
   scrolled into view after sending (einlass:scroll, to the element named by scrollId or the frame).
   A paid event's form opens its pay page in this window (einlass:navigate), not inside the frame. */
(function () {
  if (window.__einlassEmbed) return
  window.__einlassEmbed = true
  function frameOf(source) {
    var frames = document.getElementsByTagName('iframe')
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === source) return frames[i]
    return null
  }
  window.addEventListener('message', function (e) {
    var d = e.data
    if (!d || typeof d !== 'object' || typeof d.type !== 'string' || d.type.indexOf('einlass:') !== 0) return
    var frame = frameOf(e.source)
    if (!frame) return
    if (d.type === 'einlass:height' && typeof d.height === 'number' && d.height > 0) frame.style.height = Math.ceil(d.height) + 'px'
    // the frame's pay page opens in this window: only an address of the frame's own server, only /pay/
    if (d.type === 'einlass:navigate' && typeof d.url === 'string') {
      try {
        var u = new URL(d.url)
        if (u.origin === e.origin && /^\/pay\/[a-z2-7]+$/.test(u.pathname)) window.location.href = u.href
      } catch (err) {}
    }
    if (d.type === 'einlass:scroll') {
      var target = (d.scrollId && document.getElementById(String(d.scrollId))) || frame
      if (target.scrollIntoView) target.scrollIntoView({ behavior: 'smooth', block: 'start' })
    }
  })
})()
