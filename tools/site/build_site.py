#!/usr/bin/env python3
"""Builds cupp's reference site: static HTML from the hand-written guides (docs/*.md) and the
generated API pages (docs/api/**.md), with an index by module and family (read from specs/), a
search box over every page's headings, and a page per repository file a page links to (a compiled
example such as docs/examples/profiler.cpp is shown from the file itself, never copied).

The build fails (exit 1, every problem listed) on:
  - a relative link to a file that does not exist, or to an anchor its target page lacks;
  - a C++ code block that is not included from a compiled source. A page writes
        ```cpp snippet=examples/profiler.cpp#benchmark
        (a copy of the snippet, for readers of the Markdown file)
        ```
    and the site shows the lines between `// [snippet benchmark]` and `// [end snippet]` in that file
    (one of docs/examples/, testing/examples/, tests/, which the tests build and run); the copy in
    the page must equal them (`build_site.py --sync` rewrites the copies). tools/site/pending_excerpts.txt
    lists the pages with plain ```cpp blocks still to convert; it only shrinks (a listed page that has
    none left, or that does not exist, is reported too).

Only Debian's packages: python3-markdown and python3-yaml.

usage: build_site.py --root DIR --out DIR
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import sys
import unicodedata

import markdown
import yaml

# The pages with plain ```cpp blocks still to convert into snippets (one per line; only shrinks).
PENDING_FILE = "tools/site/pending_excerpts.txt"
SNIPPET_BLOCK = re.compile(r"^```(cpp|c\+\+)([^\n]*)\n(.*?)^```[ \t]*$", re.S | re.M)

# Compiled and run sources that code blocks may quote.
EXAMPLE_SOURCE_DIRS = ("docs/examples", "testing/examples", "tests")
MODULE_ORDER = ("core", "linalg", "fft", "random", "sparse")

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; display: flex; color: #1b1b1b; }
nav { width: 16rem; padding: 1rem; background: #f4f6f8; height: 100vh; overflow-y: auto; position: sticky; top: 0; }
main { padding: 1rem 2rem; max-width: 60rem; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
pre { background: #f4f6f8; padding: 0.6rem; overflow-x: auto; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccd; padding: 0.2rem 0.5rem; vertical-align: top; }
#search { width: 100%; box-sizing: border-box; padding: 0.3rem; }
#results li { margin: 0.2rem 0; }
"""

SEARCH_JS = """
// Filters the site's headings (search-index.js) by the words typed; ?q=WORD fills the box.
function cuppSearch(box, list, prefix) {
  const run = () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(w => w.length > 0);
    list.innerHTML = '';
    if (words.length === 0) return;
    const hits = CUPP_SEARCH_INDEX.filter(e => words.every(w => e.key.includes(w)));
    hits.sort((a, b) => (a.title.toLowerCase() === words.join(' ') ? -1 : 0) - (b.title.toLowerCase() === words.join(' ') ? -1 : 0));
    for (const e of hits.slice(0, 50)) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = prefix + e.url;
      a.textContent = e.title;
      li.appendChild(a);
      li.appendChild(document.createTextNode(' \\u2014 ' + e.page));
      list.appendChild(li);
    }
  };
  box.addEventListener('input', run);
  const params = new URLSearchParams(window.location.search);
  const q = params.get('q');
  if (q) { box.value = q; }
  run();
  // ?goto=ID shows the page from heading ID on (a fragment does not reach headless screenshots).
  const target = params.get('goto') && document.getElementById(params.get('goto'));
  if (target) {
    for (let e = target.previousElementSibling; e; e = e.previousElementSibling) e.style.display = 'none';
  }
}
"""


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading (lower case, punctuation dropped, spaces to '-')."""
    text = unicodedata.normalize("NFKC", re.sub(r"<[^>]+>", "", text)).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class Site:
    def __init__(self, root: str, out: str):
        self.root = os.path.abspath(root)
        self.out = os.path.abspath(out)
        self.problems: list[str] = []
        self.pages: dict[str, str] = {}      # docs-relative .md path -> its HTML body
        self.anchors: dict[str, set[str]] = {}  # site path (.html) -> ids
        self.titles: dict[str, str] = {}
        self.source_pages: set[str] = set()  # repo-relative paths shown as source pages
        self.links: list[tuple[str, str, str]] = []  # (page, site target, anchor)
        self.search: list[dict[str, str]] = []
        self.pending: set[str] = set()
        pending = os.path.join(self.root, PENDING_FILE)
        if os.path.exists(pending):
            with open(pending, encoding="utf-8") as fh:
                self.pending = {l.split("#")[0].strip() for l in fh} - {""}
        for p in sorted(self.pending):
            if not os.path.exists(os.path.join(self.root, "docs", p)):
                self.problems.append(f"{PENDING_FILE}: {p} is not a page of docs/")

    # ---- inputs -----------------------------------------------------------------------------
    def markdown_files(self) -> list[str]:
        found = []
        for base, _, files in os.walk(os.path.join(self.root, "docs")):
            for f in files:
                if f.endswith(".md"):
                    found.append(os.path.relpath(os.path.join(base, f), os.path.join(self.root, "docs")))
        return sorted(found)

    # ---- pages ------------------------------------------------------------------------------
    def render_page(self, rel: str) -> None:
        with open(os.path.join(self.root, "docs", rel), encoding="utf-8") as fh:
            text = fh.read()
        text = self.include_snippets(rel, text)
        md = markdown.Markdown(extensions=["tables", "fenced_code", "toc"],
                               extension_configs={"toc": {"slugify": lambda t, sep: github_slug(t)}})
        body = md.convert(text)
        site_path = rel[:-3] + ".html"
        body = re.sub(r'href="([^"]+)"', lambda m: 'href="%s"' % self.rewrite_link(rel, site_path, html.unescape(m.group(1))), body)
        ids = set(re.findall(r'id="([^"]+)"', body))
        self.anchors[site_path] = ids
        title_match = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
        title = re.sub(r"<[^>]+>", "", title_match.group(1)) if title_match else rel
        self.titles[site_path] = html.unescape(title)
        for level, anchor, heading in re.findall(r'<h([1-3]) id="([^"]+)">(.*?)</h\1>', body, re.S):
            plain = html.unescape(re.sub(r"<[^>]+>", "", heading))
            self.search.append({"title": plain, "url": site_path + ("" if level == "1" else "#" + anchor),
                                "page": self.titles[site_path], "key": (plain + " " + self.titles[site_path]).lower()})
        self.pages[site_path] = body

    def rewrite_link(self, page_md: str, page_html: str, href: str) -> str:
        if re.match(r"^[a-z][a-z0-9+.-]*:", href) or href.startswith("//"):
            return html.escape(href)  # absolute URLs are left alone (not checked: the build is offline)
        path, _, anchor = href.partition("#")
        if not path:
            self.links.append((page_html, page_html, anchor))
            return html.escape(href)
        target_repo = os.path.normpath(os.path.join("docs", os.path.dirname(page_md), path))
        if target_repo.startswith(".."):
            self.problems.append(f"{page_md}: link {href} leaves the repository")
            return html.escape(href)
        if not os.path.exists(os.path.join(self.root, target_repo)):
            self.problems.append(f"{page_md}: broken link {href} ({target_repo} does not exist)")
            return html.escape(href)
        if target_repo.startswith("docs" + os.sep) and target_repo.endswith(".md"):
            target_site = os.path.relpath(target_repo, "docs")[:-3] + ".html"
        elif os.path.isdir(os.path.join(self.root, target_repo)):
            readme = os.path.join(target_repo, "README.md")
            if not os.path.exists(os.path.join(self.root, readme)):
                self.problems.append(f"{page_md}: link {href} names a folder without a README.md")
                return html.escape(href)
            target_repo = readme
            target_site = self.source_page(readme)
        else:
            target_site = self.source_page(target_repo)
        self.links.append((page_html, target_site, anchor))
        rel = os.path.relpath(target_site, os.path.dirname(page_html) or ".")
        return html.escape(rel + ("#" + anchor if anchor else ""))

    def source_page(self, repo_path: str) -> str:
        self.source_pages.add(repo_path)
        return os.path.join("source", repo_path + ".html")

    def snippet(self, rel: str, spec: str) -> str | None:
        """The lines of snippet `FILE#NAME` (FILE relative to the page), or None with a problem."""
        path, _, name = spec.partition("#")
        repo = os.path.normpath(os.path.join("docs", os.path.dirname(rel), path))
        if not any(repo.startswith(d + os.sep) for d in EXAMPLE_SOURCE_DIRS):
            self.problems.append(f"{rel}: snippet {spec}: not a compiled source ({', '.join(EXAMPLE_SOURCE_DIRS)})")
            return None
        try:
            with open(os.path.join(self.root, repo), encoding="utf-8") as fh:
                source = fh.read()
        except OSError:
            self.problems.append(f"{rel}: snippet {spec}: {repo} does not exist")
            return None
        m = re.search(r"^[ \t]*// \[snippet " + re.escape(name) + r"\][^\n]*\n(.*?)^[ \t]*// \[end snippet\]", source, re.S | re.M)
        if not m:
            self.problems.append(f"{rel}: snippet {spec}: no '// [snippet {name}]' ... '// [end snippet]' in {repo}")
            return None
        lines = m.group(1).splitlines()
        indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
        return "\n".join(l[indent:] for l in lines).rstrip() + "\n"

    def include_snippets(self, rel: str, text: str, sync: bool = False) -> str:
        """Fills every ```cpp snippet=FILE#NAME block from its source; checks the page's copy (or,
        with sync, replaces it) and that no plain C++ block is left outside the pending list."""
        plain = 0

        def fill(m: re.Match) -> str:
            nonlocal plain
            info = m.group(2).strip()
            spec = re.match(r"snippet=(\S+)$", info)
            if not spec:
                plain += 1
                return m.group(0)
            code = self.snippet(rel, spec.group(1))
            if code is None:
                return m.group(0)
            if m.group(3) != code and not sync:
                self.problems.append(f"{rel}: the copy of snippet {spec.group(1)} differs from its source "
                                     "(tools/site/build_site.py --sync rewrites it)")
            # The page's own form (for --sync), or the plain block markdown renders.
            return f"```cpp snippet={spec.group(1)}\n{code}```" if sync else f"```cpp\n{code}```"

        filled = SNIPPET_BLOCK.sub(fill, text)
        if rel in self.pending and plain == 0 and not sync:
            self.problems.append(f"{rel}: no plain C++ block is left: drop it from {PENDING_FILE}")
        elif rel not in self.pending and plain and not sync:
            self.problems.append(f"{rel}: {plain} C++ block(s) not included from a compiled source "
                                 "(write ```cpp snippet=FILE#NAME and mark the lines in FILE)")
        return filled

    # ---- output -----------------------------------------------------------------------------
    def write(self) -> None:
        if os.path.isdir(self.out):
            shutil.rmtree(self.out)
        os.makedirs(self.out)
        for site_path, body in self.pages.items():
            self.write_html(site_path, self.titles[site_path], body)
        for repo_path in sorted(self.source_pages):
            with open(os.path.join(self.root, repo_path), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            site_path = os.path.join("source", repo_path + ".html")
            body = f"<h1>{html.escape(repo_path)}</h1>\n<p>The file as it is in the repository" + \
                   (", built and run by the tests" if repo_path.endswith(".cpp") else "") + \
                   f".</p>\n<pre><code>{html.escape(text)}</code></pre>\n"
            self.anchors[site_path] = set()
            self.write_html(site_path, repo_path, body)
        self.write_index()
        with open(os.path.join(self.out, "search-index.js"), "w", encoding="utf-8") as fh:
            fh.write("const CUPP_SEARCH_INDEX = " + json.dumps(self.search, indent=0) + ";\n" + SEARCH_JS)
        with open(os.path.join(self.out, "style.css"), "w", encoding="utf-8") as fh:
            fh.write(STYLE)

    def write_html(self, site_path: str, title: str, body: str) -> None:
        prefix = os.path.relpath(".", os.path.dirname(site_path) or ".")
        prefix = "" if prefix == "." else prefix + "/"
        page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} — cupp</title>
<link rel="stylesheet" href="{prefix}style.css"><script src="{prefix}search-index.js"></script></head>
<body><nav><p><a href="{prefix}index.html"><b>cupp</b></a></p>
<input id="search" type="search" placeholder="Search (e.g. sum)" aria-label="Search">
<ul id="results"></ul></nav>
<main>
{body}
</main>
<script>cuppSearch(document.getElementById('search'), document.getElementById('results'), '{prefix}');</script>
</body></html>
"""
        path = os.path.join(self.out, site_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)

    def write_index(self) -> None:
        families: dict[str, list[tuple[str, str]]] = {m: [] for m in MODULE_ORDER}
        for f in sorted(os.listdir(os.path.join(self.root, "specs", "routines"))):
            if not f.endswith(".yaml"):
                continue
            with open(os.path.join(self.root, "specs", "routines", f), encoding="utf-8") as fh:
                spec = yaml.safe_load(fh)
            family = spec.get("family", f[:-5])
            module = spec.get("module", "core")
            page = f"api/{family}.html"
            if page not in self.pages:
                self.problems.append(f"specs/routines/{f}: family {family} has no page docs/api/{family}.md")
                continue
            names = ", ".join(r["name"] for r in spec.get("routines", []))
            families.setdefault(module, []).append((page, f"{family}: {names}"))
        ufuncs = sorted(p for p in self.pages if p.startswith("api/ufuncs/"))
        parts = ["<h1 id=\"cupp\">cupp: NumPy and SciPy for NVIDIA GPUs, in C++</h1>",
                 "<p>Search the guides and the API reference with the box on the left, or browse below.</p>",
                 "<h2 id=\"guides\">Guides</h2><ul>"]
        for page in sorted(p for p in self.pages if "/" not in p and p != "README.html"):
            parts.append(f'<li><a href="{page}">{html.escape(self.titles[page])}</a></li>')
        parts.append("</ul><h2 id=\"api-by-module\">API reference by module and family</h2>")
        for module, entries in families.items():
            if not entries:
                continue
            parts.append(f"<h3 id=\"module-{module}\">{'cupp::core' if module == 'core' else 'cupp::' + module}</h3><ul>")
            for page, text in entries:
                parts.append(f'<li><a href="{page}">{html.escape(text)}</a></li>')
            parts.append("</ul>")
        parts.append(f"<h3 id=\"ufuncs\">Ufuncs ({len(ufuncs)})</h3><p>")
        parts.append(", ".join(f'<a href="{p}">{html.escape(os.path.basename(p)[:-5])}</a>' for p in ufuncs))
        parts.append("</p>")
        for page in ("api/README.html", "api/dtypes.html", "api/promotion.html"):
            if page in self.pages:
                parts.append(f'<p><a href="{page}">{html.escape(self.titles[page])}</a></p>')
        self.anchors["index.html"] = {"cupp", "guides", "api-by-module", "ufuncs"} | {f"module-{m}" for m in families}
        self.write_html("index.html", "cupp reference", "\n".join(parts))

    def check_links(self) -> None:
        for page, target, anchor in self.links:
            if anchor and anchor not in self.anchors.get(target, set()):
                self.problems.append(f"{page}: link to {target}#{anchor}: no such anchor")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--out")
    parser.add_argument("--sync", action="store_true", help="rewrite the pages' copies of their snippets, then stop")
    args = parser.parse_args()
    site = Site(args.root, args.out or "site")
    if args.sync:
        for rel in site.markdown_files():
            path = os.path.join(site.root, "docs", rel)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            synced = site.include_snippets(rel, text, sync=True)
            if synced != text:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(synced)
                print("build_site: synced", rel)
        for p in site.problems:
            print("build_site:", p, file=sys.stderr)
        return 1 if site.problems else 0
    if not args.out:
        parser.error("--out is required")
    for rel in site.markdown_files():
        site.render_page(rel)
    site.write()
    site.check_links()
    for p in site.problems:
        print("build_site:", p, file=sys.stderr)
    print(f"build_site: {len(site.pages)} pages, {len(site.source_pages)} source pages, {len(site.links)} links checked, "
          f"{len(site.search)} search entries, {len(site.problems)} problems -> {args.out}")
    return 1 if site.problems else 0


if __name__ == "__main__":
    sys.exit(main())
