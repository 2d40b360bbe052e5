#!/usr/bin/env python3
"""Every environment variable a module reads is documented by the module itself: each "CUPP_..."
string literal in <module>/src and <module>/include must appear in the module's README.md, under
its "## Environment" heading (docs/environment.md points there, so a module adds a variable
without editing a shared file; `cupp info` prints its value among the module's info() rows).
Core's variables are cupp::config's (docs/environment.md, checked by Config.DocsListEveryVariable).

usage: check_module_environment.py ROOT        check every folder with a module.cmake
       check_module_environment.py --self-test  a made-up module with and without its docs"""
import os
import re
import sys
import tempfile

VARIABLE = re.compile(r'"(CUPP_[A-Z0-9_]+)"')
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")


def environment_section(readme: str) -> str:
    """The text under '## Environment' up to the next '## ' heading ('' without one)."""
    m = re.search(r"^## Environment\s*$(.*?)(?=^## |\Z)", readme, re.M | re.S)
    return m.group(1) if m else ""


def problems(root: str) -> list[str]:
    out = []
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isfile(os.path.join(folder, "module.cmake")):
            continue
        used = set()
        for sub in ("src", "include"):
            for dirpath, _, files in os.walk(os.path.join(folder, sub)):
                for f in files:
                    if f.endswith(SOURCE_SUFFIXES):
                        with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                            used |= set(VARIABLE.findall(fh.read()))
        if not used:
            continue
        readme_path = os.path.join(folder, "README.md")
        readme = open(readme_path, encoding="utf-8").read() if os.path.exists(readme_path) else ""
        section = environment_section(readme)
        for v in sorted(used):
            if f"`{v}`" not in section:
                out.append(f"{name}: {v} is read in {name}/ but not documented under '## Environment' in "
                           f"{name}/README.md")
    return out


def self_test() -> int:
    with tempfile.TemporaryDirectory() as root:
        m = os.path.join(root, "mod", "src")
        os.makedirs(m)
        open(os.path.join(root, "mod", "module.cmake"), "w").write("cupp_add_module(mod)\n")
        open(os.path.join(m, "a.cpp"), "w").write('const char* v = std::getenv("CUPP_MOD_PLANS");\n')
        open(os.path.join(root, "mod", "README.md"), "w").write("# mod\n\nMentions `CUPP_MOD_PLANS` elsewhere.\n")
        if not problems(root):
            print("self-test: a variable documented outside '## Environment' passed", file=sys.stderr)
            return 1
        open(os.path.join(root, "mod", "README.md"), "w").write(
            "# mod\n\n## Environment\n| `CUPP_MOD_PLANS` | 16 | plans kept |\n\n## Other\n")
        if problems(root):
            print("self-test: a documented variable was reported: %s" % problems(root), file=sys.stderr)
            return 1
    print("check_module_environment: self-test ok")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    found = problems(argv[0])
    for p in found:
        print("check_module_environment: " + p, file=sys.stderr)
    if not found:
        print("check_module_environment: every module's variables are documented in its README")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
