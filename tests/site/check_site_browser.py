#!/usr/bin/env python3
"""Opens the reference site (tools/site/build_site.py) in Debian's headless Chromium, as a reader
would: the index loads with its guides and its API index by module; a search for `sum` lists the
`sum` routine; the `sum` routine page shows its signature table. Screenshots of the index (with the
search) and of the routine page are written beside the site. Prints SKIPPED when Chromium is not
installed (`apt-get install chromium`; CTest entry site_browser, label browser).

usage: check_site_browser.py --root REPO --out DIR
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(browser: str, profile: str, *args: str) -> str:
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", "--virtual-time-budget=5000", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    browser = chromium()
    if browser is None:
        print("SKIPPED: Chromium is not installed (apt-get install chromium)")
        return 0
    site = os.path.join(args.out, "site")
    build = subprocess.run([sys.executable, os.path.join(args.root, "tools", "site", "build_site.py"),
                            "--root", args.root, "--out", site], capture_output=True, text=True)
    if build.returncode != 0:
        print(build.stdout, build.stderr)
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as profile:
        index = "file://" + os.path.abspath(os.path.join(site, "index.html"))
        dom = run(browser, profile, "--dump-dom", index)
        for want in ("API reference by module and family", 'href="api/reductions.html"', "cupp::linalg", "Guides"):
            if want not in dom:
                failures.append(f"index: {want!r} not in the page")
        dom = run(browser, profile, "--dump-dom", index + "?q=sum")
        results = re.search(r'<ul id="results">(.*?)</ul>', dom, re.S)
        hits = re.findall(r'<a href="([^"]+)">([^<]+)</a>', results.group(1)) if results else []
        if ("api/reductions.html#sum", "sum") not in hits:
            failures.append(f"search for 'sum': no link to api/reductions.html#sum among {hits[:10]}")
        else:
            print(f"search 'sum': {len(hits)} results, first {hits[0]}")
        page = "file://" + os.path.abspath(os.path.join(site, "api", "reductions.html"))
        dom = run(browser, profile, "--dump-dom", page)
        section = re.search(r'<h3 id="sum">(.*?)(<h3|$)', dom, re.S)
        if not section or not all(w in section.group(1) for w in ("<table>", "<th>parameter</th>", "<code>axis</code>",
                                                                   "cupp::sum(a")):
            failures.append("routine page: the sum section has no signature table")
        for name, url in (("index-search-sum.png", index + "?q=sum"), ("routine-sum.png", page + "?goto=sum")):
            shot = os.path.abspath(os.path.join(args.out, name))
            run(browser, profile, f"--screenshot={shot}", "--window-size=1280,900", url)
            if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
                failures.append(f"screenshot {shot} missing or blank")
            else:
                print("screenshot:", shot)
    for f in failures:
        print("FAILED:", f)
    print("site_browser:", "ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
