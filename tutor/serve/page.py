"""The pages `lwstutor serve` answers with: the tutor's own page and the two refusals.

The tutor's page is ours, not textual-serve's: it links no web font (the lab may be offline; the
terminal's Roboto Mono comes from textual-serve's own static files), and it finds its websocket
from its own address. textual-serve builds an absolute ws:// URL from the address it was started
with, so behind a proxy, a forwarded port or a path prefix its page never gets past the splash.
Here every URL is relative to the page, or to --public-url when one is given (a <base> element),
and textual.js (which reads the websocket URL from the terminal element on load) gets one that
points where the page came from.
"""

from __future__ import annotations

from html import escape

from tutor.serve import words
from tutor.words import pick

_STYLE = """
@font-face { font-family: "Roboto Mono"; src: url("static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
             font-weight: 100 700; }
html, body { margin: 0; height: 100%; background: #0c181f; color: #e8eef2;
             font-family: "Roboto Mono", "DejaVu Sans Mono", monospace; }
.notice { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center;
          justify-content: center; gap: 1em; padding: 2em; text-align: center; line-height: 1.5; }
.notice p { max-width: 40em; margin: 0; }
.notice button { font: inherit; padding: 0.6em 1.6em; border: 0; background: #2f6f8f; color: inherit; cursor: pointer; }
#terminal { position: absolute; inset: 0; opacity: 0; }
body.-first-byte #terminal { opacity: 1; }
body.-first-byte #starting { display: none; }
#ended, #full { display: none; background: #0c181f; z-index: 5; }
body.-closed #ended { display: flex; }
body.-closed.-full #ended { display: none; }
body.-closed.-full #full { display: flex; }
"""

# textual.js opens `data-session-websocket-url` + "?width=..&height=.." when the window has
# loaded; this runs before that, at the end of the body.
_WEBSOCKET = """
(function () {
  var url = new URL("ws", document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  document.getElementById("terminal").dataset.sessionWebsocketUrl = url.href;
  // The websocket closed: the tutor ended, or the server had no place for it (at the cap it
  // refuses the websocket, which a page cannot tell apart). Ask which, to say the right thing.
  new MutationObserver(function () {
    var body = document.body;
    if (!body.classList.contains("-closed") || body.dataset.asked) return;
    body.dataset.asked = "1";
    fetch(new URL("status", document.baseURI), {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (s) { if (s.full) body.classList.add("-full"); })
      .catch(function () {});
  }).observe(document.body, {attributes: true, attributeFilter: ["class"]});
})();
"""


def tutor_page(lang: str, full: str, base: str = "", font_size: int = 16) -> str:
    """The page a tab opens: a splash until the tutor's first bytes, then its terminal; a
    notice with a reload button when the tutor has ended, or `full` when the server had no
    place for it. `base`: the public URL, ending in /."""
    head = f'<base href="{escape(base)}">' if base else ""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
{head}
<title>{escape(pick(words.TITLE, lang))}</title>
<link rel="stylesheet" href="static/css/xterm.css">
<style>{_STYLE}</style>
<script src="static/js/textual.js"></script>
</head>
<body>
<div id="starting" class="notice"><p>{escape(pick(words.STARTING, lang))}</p></div>
<div id="ended" class="notice"><p>{escape(pick(words.ENDED, lang))}</p>
<button type="button" onclick="location.reload()">{escape(pick(words.RELOAD, lang))}</button></div>
<div id="full" class="notice"><p id="full-text">{escape(full)}</p>
<button type="button" onclick="location.reload()">{escape(pick(words.RELOAD, lang))}</button></div>
<div id="terminal" class="textual-terminal" data-font-size="{int(font_size)}"></div>
<script>{_WEBSOCKET}</script>
</body>
</html>
"""


def notice_page(lang: str, text: str) -> str:
    """A page that only says why no tutor was started (no script, nothing else loaded)."""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{escape(pick(words.TITLE, lang))}</title>
<style>{_STYLE}</style>
</head>
<body>
<div class="notice"><p id="notice">{escape(text)}</p></div>
</body>
</html>
"""
