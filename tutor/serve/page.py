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

from tutor.i18n import serving
from tutor.i18n.bilingual import pick

# The Korean fonts learners' systems have, monospace first: local() only, nothing is fetched.
_HANGUL_FONTS = ("D2Coding", "NanumGothicCoding", "Nanum Gothic Coding", "Noto Sans Mono CJK KR",
                 "NotoSansMonoCJKkr-Regular", "Noto Sans CJK KR", "Malgun Gothic", "Apple SD Gothic Neo",
                 "AppleSDGothicNeo-Regular", "NanumGothic", "UnDotum")
_HANGUL_RANGE = "U+1100-11FF, U+3130-318F, U+A960-A97F, U+AC00-D7AF, U+D7B0-D7FF"
_LOCAL = ", ".join(f'local("{f}")' for f in _HANGUL_FONTS)
_FAMILIES = ", ".join(f'"{f}"' for f in _HANGUL_FONTS)

# textual.js gives the terminal the family "Roboto Mono" and nothing with Hangul. A second face of
# that family, for Hangul alone, points at the local Korean fonts, so the terminal draws Korean
# with them and everything else with Roboto Mono.
_STYLE = f"""
@font-face {{ font-family: "Roboto Mono"; src: url("static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
             font-weight: 100 700; }}
@font-face {{ font-family: "Roboto Mono"; src: {_LOCAL}; unicode-range: {_HANGUL_RANGE}; }}
html, body {{ margin: 0; height: 100%; background: #0c181f; color: #e8eef2;
             font-family: "Roboto Mono", {_FAMILIES}, "DejaVu Sans Mono", monospace; }}
#no-hangul {{ display: none; position: absolute; left: 0; right: 0; bottom: 0; z-index: 6; padding: 0.5em 1em;
             background: #8f2f2f; color: #fff; line-height: 1.4; }}
body.-no-hangul #no-hangul {{ display: block; }}
""" + """
.notice { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center;
          justify-content: center; gap: 1em; padding: 2em; text-align: center; line-height: 1.5; }
.notice p { max-width: 40em; margin: 0; word-break: keep-all; overflow-wrap: anywhere; }
.notice button { font: inherit; padding: 0.6em 1.6em; border: 0; background: #2f6f8f; color: inherit; cursor: pointer; }
#terminal { position: absolute; inset: 0; opacity: 0; }
body.-first-byte #terminal { opacity: 1; }
body.-first-byte #starting { display: none; }
#ended, #full, #failed { display: none; background: #0c181f; z-index: 5; }
body.-closed #ended { display: flex; }
body.-closed.-full #ended, body.-closed.-failed #ended { display: none; }
body.-closed.-full #full { display: flex; }
body.-closed.-failed #failed { display: flex; }
#failed-reason { font-weight: bold; }
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
  // The token has been kept as a cookie with this page: take it out of the address bar, where a
  // screen share or a screenshot would show it. A reload goes by the cookie.
  var here = new URL(location.href);
  if (here.searchParams.has("token")) {
    here.searchParams.delete("token");
    history.replaceState(history.state, "", here.pathname + here.search + here.hash);
  }
  // Is there a font for this text? A glyph no font has is drawn as the same box as a code point
  // no font has (U+0378 is unassigned).
  window.lwstutorHasFont = function (text) {
    var c = document.createElement("canvas");
    c.width = 64; c.height = 64;
    var g = c.getContext("2d", {willReadFrequently: true});
    g.font = "40px " + getComputedStyle(document.body).fontFamily;
    function ink(s) {
      g.clearRect(0, 0, 64, 64);
      g.fillText(s, 4, 48);
      return Array.prototype.join.call(g.getImageData(0, 0, 64, 64).data, ",");
    }
    return ink(text) !== ink("\u0378");
  };
  if (document.documentElement.lang === "ko") {
    document.fonts.load("40px 'Roboto Mono'", "\ud55c").then(function () {
      if (!window.lwstutorHasFont("\ud55c")) document.body.classList.add("-no-hangul");
    });
  }
  // The websocket closed: the tutor ended, or it could not start (the websocket opened, and
  // closed before the tutor's first bytes), or the server had no place for it (at the cap it
  // refuses the websocket, which a page cannot tell apart). Ask which, to say the right thing.
  new MutationObserver(function () {
    var body = document.body;
    // The tutor drew its first bytes: keys go to it at once, with no click first.
    if (body.classList.contains("-first-byte") && !body.dataset.focused) {
      var input = document.querySelector(".xterm-helper-textarea");
      if (input) { input.focus(); body.dataset.focused = "1"; }
    }
    if (!body.classList.contains("-closed") || body.dataset.asked) return;
    body.dataset.asked = "1";
    fetch(new URL("status", document.baseURI), {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        var opened = document.getElementById("terminal").classList.contains("-connected");
        if (s.failed && opened && !body.classList.contains("-first-byte")) {
          document.getElementById("failed-reason").textContent = s.failed;
          body.classList.add("-failed");
        } else if (s.full) {
          body.classList.add("-full");
        }
      })
      .catch(function () {});
  }).observe(document.body, {attributes: true, attributeFilter: ["class"]});
})();
"""


def tutor_page(lang: str, full: str, base: str = "", font_size: int = 16) -> str:
    """The page a tab opens: a splash until the tutor's first bytes, then its terminal; a
    notice with a reload button when the tutor has ended, why when it could not start (the
    server's /status says), or `full` when the server had no place for it. `base`: the public
    URL, ending in /."""
    head = f'<base href="{escape(base)}">' if base else ""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
{head}
<title>{escape(pick(serving.TITLE, lang))}</title>
<link rel="stylesheet" href="static/css/xterm.css">
<style>{_STYLE}</style>
<script src="static/js/textual.js"></script>
</head>
<body>
<div id="starting" class="notice"><p>{escape(pick(serving.STARTING, lang))}</p></div>
<div id="ended" class="notice"><p>{escape(pick(serving.ENDED, lang))}</p>
<button type="button" onclick="location.reload()">{escape(pick(serving.RELOAD, lang))}</button></div>
<div id="full" class="notice"><p id="full-text">{escape(full)}</p>
<button type="button" onclick="location.reload()">{escape(pick(serving.RELOAD, lang))}</button></div>
<div id="failed" class="notice"><p>{escape(pick(serving.FAILED, lang))}</p><p id="failed-reason"></p>
<p>{escape(pick(serving.FAILED_NEXT, lang))}</p>
<button type="button" onclick="location.reload()">{escape(pick(serving.RELOAD, lang))}</button></div>
<div id="terminal" class="textual-terminal" data-font-size="{int(font_size)}"></div>
<div id="no-hangul"><p lang="en">{escape(pick(serving.NO_HANGUL, "en"))}</p>
<p lang="ko">{escape(pick(serving.NO_HANGUL, "ko"))}</p></div>
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
<title>{escape(pick(serving.TITLE, lang))}</title>
<style>{_STYLE}</style>
</head>
<body>
<div class="notice"><p id="notice">{escape(text)}</p></div>
</body>
</html>
"""
