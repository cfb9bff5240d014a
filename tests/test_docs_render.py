"""Checks of a built HTML documentation tree (``sphinx-build -b html docs DIR``).

The tree is given by the environment variable ``ARETE_DOCS_HTML``; without it
the whole module is skipped.  CI builds the docs, then runs::

    ARETE_DOCS_HTML=/path/to/html python -m pytest tests/test_docs_render.py

Static checks (always run when the variable is set):

* MathJax is served from the build (``_static/mathjax/...``), never from a CDN,
  and the referenced script exists;
* every ``<img>`` of every page points to an existing file;
* a page with a sphinx-proof lemma (``<div class="proof lemma ...">``) exists.

The site's shape (static): the landing page has at most 40 links in its
content, no page's content is over 5,000 words (Sphinx's own index pages aside),
and every section of the reader-shaped structure is there.

Rendering check: a headless Chromium loads pages from ``file://`` (no network,
fresh profile), lets MathJax run, and dumps the DOM; it must contain MathJax
output (``mjx-container``), no unrendered ``\\(`` in the visible text, and the
images of a page with plots, and one MathJax container per math element of the
static page.  **Every page** is opened this way: a harness page loads each one in
an iframe, waits until its formulas are typeset and its images loaded, and
reports the counts (one browser run per batch of pages).  A screenshot of a
statement page must have the window's size and not be blank (a broken theme or
script shows up there).  Skipped when no Chromium is installed, unless
``ARETE_REQUIRE_BROWSER=1`` (CI sets it when it installed Chromium): then a
missing browser fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ENV_VAR = "ARETE_DOCS_HTML"
_ROOT = os.environ.get(ENV_VAR)
if not _ROOT:
    pytest.skip(
        f"{ENV_VAR} is not set: build the docs (sphinx-build -b html docs DIR) and run "
        f"with {ENV_VAR}=DIR to check the built pages",
        allow_module_level=True,
    )

HTML_ROOT = Path(_ROOT).resolve()

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
NO_CHROMIUM = (
    "Chromium not installed: install the Debian packages chromium and chromium-driver "
    "to run the rendering check"
)
#: set to 1 to fail (not skip) when no browser is found
REQUIRE_BROWSER = os.environ.get("ARETE_REQUIRE_BROWSER", "0") == "1"
#: window of the screenshot check (CSS pixels; the PNG has exactly this size)
SCREENSHOT_SIZE = (1200, 1600)
#: wall-clock limit of one browser run (the page itself gets a 15 s virtual-time budget)
BROWSER_TIMEOUT = 600

#: MathJax loaded from anywhere but the build: a CDN or any absolute URL
_REMOTE_MATHJAX = re.compile(
    r"cdn\.jsdelivr|mathjax\.org|cdnjs\.cloudflare\.com/ajax/libs/mathjax"
    r"|(?:https?:)?//[^\"'\s>]*mathjax",
    re.IGNORECASE,
)
#: TeX delimiters that MathJax should have consumed
_RAW_TEX = re.compile(r"\\\(|\\\[")


# --------------------------------------------------------------------------
# HTML parsing
# --------------------------------------------------------------------------


class _Page(HTMLParser):
    """The few facts about one HTML document that the checks need."""

    #: text inside these elements is not rendered prose (or is shown verbatim)
    SKIP_TEXT = frozenset({"script", "style", "noscript", "template", "textarea", "pre", "code"})
    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []  # src of <script>
        self.images: list[str] = []  # src (and srcset entries) of <img>
        self.img_count = 0
        self.classes: list[set[str]] = []  # class sets of all elements
        self.tag_counts: dict[str, int] = {}
        self.text: list[str] = []  # visible text (outside SKIP_TEXT)
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tag_counts[tag] = self.tag_counts.get(tag, 0) + 1
        self.classes.append(set((attrs.get("class") or "").split()))
        if tag == "script" and attrs.get("src"):
            self.scripts.append(attrs["src"])
        if tag == "img":
            self.img_count += 1
            if attrs.get("src") is not None:
                self.images.append(attrs["src"])
            for entry in (attrs.get("srcset") or "").split(","):
                if entry.strip():
                    self.images.append(entry.split()[0])
        if tag not in self.VOID:
            self._stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self._stack and self._stack[-1] == tag:
            self._stack.pop()

    def handle_endtag(self, tag):
        if tag in self._stack:  # tolerate unclosed elements such as <p>
            while self._stack and self._stack.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.SKIP_TEXT.intersection(self._stack):
            self.text.append(data)

    @property
    def visible_text(self) -> str:
        return "".join(self.text)

    def has_classes(self, *names: str) -> bool:
        wanted = set(names)
        return any(wanted <= classes for classes in self.classes)


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


@cache
def _pages() -> dict[Path, tuple[str, _Page]]:
    if not HTML_ROOT.is_dir():
        pytest.fail(f"{ENV_VAR}={HTML_ROOT} is not a directory")
    pages = {}
    for path in sorted(HTML_ROOT.rglob("*.html")):
        if "_static" in path.relative_to(HTML_ROOT).parts or "_sources" in path.relative_to(HTML_ROOT).parts:
            continue
        html = path.read_text(encoding="utf-8")
        pages[path] = (html, _parse(html))
    if not pages:
        pytest.fail(f"no HTML pages under {HTML_ROOT}: was the build run?")
    return pages


def _local_target(page: Path, url: str) -> Path | None:
    """The file a relative URL of ``page`` refers to, or None for an absolute / data URL."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    return (page.parent / unquote(parts.path)).resolve()


def _rel(path: Path) -> str:
    return str(path.relative_to(HTML_ROOT))


def _math_pages() -> list[Path]:
    return [path for path, (_, page) in _pages().items() if page.has_classes("math")]


def _lemma_pages() -> list[Path]:
    return [path for path, (_, page) in _pages().items() if page.has_classes("proof", "lemma")]


# --------------------------------------------------------------------------
# Static checks
# --------------------------------------------------------------------------


def test_pages_with_math_exist():
    assert _math_pages(), "no page contains math (class 'math'): is MyST dollarmath enabled?"


def test_mathjax_is_served_locally():
    problems = []
    for path, (html, page) in _pages().items():
        for match in _REMOTE_MATHJAX.finditer(html):
            problems.append(f"{_rel(path)}: remote MathJax reference {match.group(0)!r}")
        mathjax = [src for src in page.scripts if "mathjax" in src.lower()]
        if path in _math_pages() and not mathjax:
            problems.append(f"{_rel(path)}: has math but loads no MathJax script")
        for src in mathjax:
            target = _local_target(path, src)
            if target is None:
                problems.append(f"{_rel(path)}: MathJax loaded from {src!r}")
                continue
            try:
                inside = target.relative_to(HTML_ROOT).parts
            except ValueError:
                inside = ()
            if inside[:2] != ("_static", "mathjax"):
                problems.append(f"{_rel(path)}: MathJax script {src!r} is not under _static/mathjax/")
            if not target.is_file():
                problems.append(f"{_rel(path)}: MathJax script {src!r} does not exist")
    assert not problems, "\n".join(problems)


def test_images_exist():
    problems = []
    for path, (_, page) in _pages().items():
        for src in page.images:
            if src.startswith("data:"):
                continue
            target = _local_target(path, src)
            if target is None:
                problems.append(f"{_rel(path)}: remote image {src!r} (the docs must work offline)")
            elif not target.is_file():
                problems.append(f"{_rel(path)}: image {src!r} does not exist")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------
# The site's shape
# --------------------------------------------------------------------------

#: The reader-shaped sections: each is a folder with an index page.
SECTIONS = ("getting-started", "howto", "explanation", "results", "reference", "project")
#: Sphinx's own pages: indexes and search, not content.
INDEX_PAGES = frozenset({"genindex.html", "search.html", "py-modindex.html", "prf-prf.html"})
MAX_WORDS = 5000
MAX_LANDING_LINKS = 40


class _Article(HTMLParser):
    """Words and links of a page's ``<article>`` (the content, without the theme's navigation)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = 0
        self.skip = 0
        self.words = 0
        self.links = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.inside += 1
        if tag in ("script", "style"):
            self.skip += 1
        href = attrs.get("href") or ""
        if self.inside and tag == "a" and href and not href.startswith("#") and \
                "headerlink" not in (attrs.get("class") or ""):
            self.links += 1

    def handle_endtag(self, tag):
        if tag == "article":
            self.inside -= 1
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if self.inside and not self.skip:
            self.words += len(data.split())


def _article(html: str) -> _Article:
    a = _Article()
    a.feed(html)
    a.close()
    return a


def test_landing_page_has_at_most_40_links():
    index = HTML_ROOT / "index.html"
    assert index.is_file(), "no index.html"
    links = _article(_pages()[index.resolve()][0]).links
    assert 0 < links <= MAX_LANDING_LINKS, f"the landing page has {links} links"


def test_no_page_is_over_5000_words():
    long = {}
    for path, (html, _) in _pages().items():
        if path.name in INDEX_PAGES:
            continue
        words = _article(html).words
        if words > MAX_WORDS:
            long[_rel(path)] = words
    assert not long, f"pages over {MAX_WORDS} words: {long}"


def test_the_sections_are_there():
    for section in SECTIONS:
        assert (HTML_ROOT / section / "index.html").is_file(), f"no {section}/index.html"
    for generated in ("generated/families/index.html", "generated/api/privacy.html", "generated/cli/index.html",
                      "generated/proof-chain.html", "generated/changelog/index.html"):
        assert (HTML_ROOT / generated).is_file(), f"no {generated}"


def test_the_shape_checks_can_fail():
    a = _article("<nav><a href='x.html'>n</a></nav><article><p>one two</p><a href='y.html'>three</a>"
                 "<a class='headerlink' href='z.html'>#</a><a href='#local'>l</a><script>var a = 1;</script></article>")
    assert (a.words, a.links) == (5, 1)     # one two three # l: words of the article only; one outside link


def test_lemma_page_exists():
    assert _lemma_pages(), (
        "no built page contains a sphinx-proof lemma (<div class=\"proof lemma ...\">): "
        "the statement pages (prf:lemma) are missing"
    )


# --------------------------------------------------------------------------
# Rendering in a headless browser
# --------------------------------------------------------------------------


def _chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run_browser(browser: str, page: Path, profile: Path, *extra: str) -> str:
    """Run headless ``browser`` on ``page`` with ``extra`` arguments; its standard output."""
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        f"--user-data-dir={profile}",
        *extra,
        page.as_uri(),
    ]
    # Own process group, so that on a timeout the browser's helper processes
    # (zygote, renderer, ...) are killed together with it.
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=BROWSER_TIMEOUT)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        name = _rel(page) if page.is_relative_to(HTML_ROOT) else page.name
        pytest.fail(f"{browser} did not finish rendering {name} within {BROWSER_TIMEOUT} s")
    assert proc.returncode == 0, f"{browser} exited with {proc.returncode} on {page.name}:\n{err[-3000:]}"
    return out


def _dump_dom(browser: str, page: Path, profile: Path) -> str:
    """The DOM of ``page`` after its scripts ran, as serialised by ``--dump-dom``."""
    out = _run_browser(browser, page, profile, "--virtual-time-budget=15000", "--dump-dom")
    assert "<html" in out.lower(), f"{browser} dumped no DOM for {_rel(page)}"
    return out


def _render_targets() -> list[Path]:
    """A lemma page (else some page with math), plus the page with the most images."""
    targets = []
    math_pages = _lemma_pages() or _math_pages()
    if math_pages:
        # the page with the most formulas exercises MathJax the most
        targets.append(max(math_pages, key=lambda p: _pages()[p][0].count('class="math')))
    # prefer pages with plots (matplotlib plot directive / Sphinx's _images/)
    # over pages whose only images are theme icons
    images = {
        p: sum("plot_directive" in src or "_images/" in src for src in page.images)
        for p, (_, page) in _pages().items()
    }
    images = {p: n for p, n in images.items() if n} or {
        p: page.img_count for p, (_, page) in _pages().items() if page.img_count
    }
    if images:
        with_images = max(images, key=images.get)
        if with_images not in targets:
            targets.append(with_images)
    return targets


@pytest.fixture(scope="module")
def browser() -> str:
    found = _chromium()
    if found is None:
        if REQUIRE_BROWSER:
            pytest.fail(f"ARETE_REQUIRE_BROWSER=1 but {NO_CHROMIUM}")
        pytest.skip(NO_CHROMIUM)
    return found


@pytest.fixture(scope="module")
def rendered(browser, tmp_path_factory) -> dict[Path, _Page]:
    """Browser DOM of each page of :func:`_render_targets` (each with a fresh profile)."""
    targets = _render_targets()
    if not targets:
        pytest.fail("no page with math or images to render")
    doms = {}
    for index, page in enumerate(targets):
        profile = tmp_path_factory.mktemp(f"chromium-profile-{index}")
        doms[page] = _parse(_dump_dom(browser, page, profile))
    return doms


def test_browser_renders_math(rendered):
    for path, dom in rendered.items():
        if not _pages()[path][1].has_classes("math"):
            continue
        assert dom.tag_counts.get("mjx-container", 0) > 0, (
            f"{_rel(path)}: MathJax produced no output (no <mjx-container>) -- "
            "did _static/mathjax load?"
        )
        raw = [m.start() for m in _RAW_TEX.finditer(dom.visible_text)]
        if raw:
            text = dom.visible_text
            snippets = [text[max(0, i - 40) : i + 40] for i in raw[:5]]
            pytest.fail(f"{_rel(path)}: {len(raw)} unrendered TeX delimiter(s), e.g. {snippets!r}")


def test_browser_keeps_images(rendered):
    with_images = [path for path in rendered if _pages()[path][1].img_count]
    if not with_images:
        pytest.skip("no built page has images (no plots yet)")
    for path in with_images:
        static_count = _pages()[path][1].img_count
        assert rendered[path].img_count > 0, f"{_rel(path)}: no <img> in the rendered DOM"
        assert rendered[path].img_count >= static_count, (
            f"{_rel(path)}: {static_count} images in the HTML, {rendered[path].img_count} after rendering"
        )


def test_browser_typesets_every_formula(rendered):
    """One <mjx-container> per math element of the static page (none left to chance)."""
    for path, dom in rendered.items():
        static = _pages()[path][1]
        formulas = sum(1 for classes in static.classes if "math" in classes)
        if not formulas:
            continue
        assert dom.tag_counts.get("mjx-container", 0) >= formulas, (
            f"{_rel(path)}: {formulas} math elements, {dom.tag_counts.get('mjx-container', 0)} typeset"
        )


#: The harness: loads each page of PAGES in an iframe, waits until that page (not the iframe's first blank
#: document) is complete, every formula typeset and every image loaded (or 10 s of virtual time), and
#: writes one line per page into <pre id="out">.
_HARNESS = """<!DOCTYPE html><html><body><pre id="out"></pre>
<iframe id="f" style="width:1200px;height:900px"></iframe>
<script>
const pages = PAGES;
const out = document.getElementById("out");
const f = document.getElementById("f");
let i = 0;
function next() {
  if (i >= pages.length) { out.textContent += "DONE\\n"; return; }
  const p = pages[i++];
  const t0 = Date.now();
  let finished = false;
  function finish(line) { finished = true; out.textContent += line + "\\n"; next(); }
  function check() {
    if (finished) return;
    let d;
    try { d = f.contentDocument; } catch (e) { finish("PAGE " + p + " error"); return; }
    const here = d && d.location && decodeURI(d.location.href.split("#")[0]) === decodeURI(p);
    if (here && d.readyState === "complete") {
      const math = d.querySelectorAll(".math").length;
      const mjx = d.querySelectorAll("mjx-container").length;
      const imgs = Array.from(d.images);
      const loaded = imgs.filter(im => im.complete && im.naturalWidth > 0).length;
      if ((mjx >= math && loaded === imgs.length) || Date.now() - t0 > 10000) {
        const text = d.body ? d.body.innerText : "";
        const raw = (text.match(/\\\\\\(|\\\\\\[/g) || []).length;
        finish(`PAGE ${p} math=${math} mjx=${mjx} img=${imgs.length} loaded=${loaded} raw=${raw}`);
        return;
      }
    } else if (Date.now() - t0 > 20000) { finish("PAGE " + p + " never loaded"); return; }
    setTimeout(check, 100);
  }
  f.src = p;
  setTimeout(check, 100);
}
next();
</script></body></html>
"""
_LINE = re.compile(r"PAGE (\S+) math=(\d+) mjx=(\d+) img=(\d+) loaded=(\d+) raw=(\d+)$", re.M)
#: Pages per browser run.
BATCH = 40


def _render_all(browser: str, pages: list[Path], tmp: Path) -> dict[str, tuple[int, ...]]:
    """``{file URI: (math, mjx, images, loaded, raw TeX)}`` of every page, from the harness."""
    import json

    results = {}
    for k in range(0, len(pages), BATCH):
        batch = [p.as_uri() for p in pages[k:k + BATCH]]
        harness = tmp / f"harness-{k}.html"
        harness.write_text(_HARNESS.replace("PAGES", json.dumps(batch)), encoding="utf-8")
        profile = tmp / f"profile-{k}"
        out = _run_browser(browser, harness, profile, "--allow-file-access-from-files",
                           f"--virtual-time-budget={12000 * len(batch)}", "--dump-dom")
        assert "DONE" in out, f"the harness did not finish its batch of {len(batch)} pages"
        for m in _LINE.finditer(out):
            results[unquote(m.group(1))] = tuple(int(m.group(i)) for i in range(2, 7))
    return results


def test_browser_renders_every_page(browser, tmp_path):
    """Every page of the site: each formula typeset, each image loaded, no raw TeX left."""
    pages = [p for p in _pages() if p.name not in INDEX_PAGES]
    results = _render_all(browser, pages, tmp_path)
    problems = []
    for page in pages:
        got = results.get(unquote(page.as_uri()))
        if got is None:
            problems.append(f"{_rel(page)}: not rendered")
            continue
        math, mjx, images, loaded, raw = got
        if mjx < math:
            problems.append(f"{_rel(page)}: {math} math elements, {mjx} typeset")
        if loaded < images:
            problems.append(f"{_rel(page)}: {images - loaded} of {images} images not loaded")
        if raw:
            problems.append(f"{_rel(page)}: {raw} unrendered TeX delimiters")
    assert not problems, f"{len(problems)} of {len(pages)} pages:\n" + "\n".join(problems[:40])


def test_browser_check_catches_a_broken_page(browser, tmp_path):
    """A page with raw TeX, a formula MathJax never sees and a missing image fails every count."""
    page = tmp_path / "broken.html"
    page.write_text("<html><body><p>Raw \\(x\\) here.</p><span class='math'>y</span>"
                    "<img src='missing.png'></body></html>", encoding="utf-8")
    math, mjx, images, loaded, raw = _render_all(browser, [page], tmp_path)[unquote(page.as_uri())]
    assert (math, mjx, images, loaded) == (1, 0, 1, 0) and raw == 1


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_screenshot_of_a_statement_page(browser, tmp_path):
    """A screenshot of a lemma page: the window's size, and not blank (text, formulas, theme)."""
    image = pytest.importorskip("matplotlib.image")
    pages = _lemma_pages()
    assert pages, "no statement page with a sphinx-proof lemma to photograph"
    page = next((p for p in pages if p.stem == "lemma-16"), pages[0])
    shot = tmp_path / "page.png"
    width, height = SCREENSHOT_SIZE
    _run_browser(browser, page, tmp_path / "profile", "--virtual-time-budget=15000", "--hide-scrollbars",
                 f"--window-size={width},{height}", f"--screenshot={shot}")
    assert shot.is_file(), f"no screenshot of {_rel(page)}"
    assert _png_size(shot.read_bytes()) == SCREENSHOT_SIZE
    problems = _screenshot_problems(image.imread(shot)[..., :3])
    assert not problems, f"screenshot of {_rel(page)}: {problems}"


def _screenshot_problems(pixels) -> list[str]:
    """Why an RGB image (floats in [0, 1]) does not look like a rendered page, if it does not."""
    ink = float((pixels.min(axis=2) < 0.6).mean())  # dark pixels: text and formulas
    colours = len({tuple(c) for c in (pixels[::7, ::7] * 255).astype(int).reshape(-1, 3)})
    problems = []
    if not 0.005 < ink < 0.6:
        problems.append(f"{ink:.4f} of the pixels are dark (blank or flooded)")
    if colours <= 20:
        problems.append(f"only {colours} colours (no theme, no anti-aliased text)")
    return problems


def test_screenshot_check_rejects_blank_and_flooded_pages():
    np = pytest.importorskip("numpy")
    white = np.ones((160, 120, 3))
    assert len(_screenshot_problems(white)) == 2
    assert _screenshot_problems(np.zeros((160, 120, 3)))  # all dark: a failed theme
    rng = np.random.default_rng(0)
    page = np.ones((160, 120, 3))
    page[20:60, 10:110] = rng.random((40, 100, 3))  # a block of "text" in many colours
    assert _screenshot_problems(page) == []
