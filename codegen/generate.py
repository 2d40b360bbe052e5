#!/usr/bin/env python3
"""cupp's generator: validates specs/ and renders generated/ and docs/api/ with Jinja2.

  generate.py --root DIR            write the outputs (a file is rewritten only when it changes,
                                    and files of ours that are no longer produced are removed)
  generate.py --root DIR --check    write nothing; exit 1 and list what is stale

Errors in a spec are printed as 'file:line: message' and exit with status 2."""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jinja2  # noqa: E402

from bench_calls import format_table as format_bench_table, translate as translate_bench  # noqa: E402
from eval_bindings import binding_body  # noqa: E402
from model import EMPTY_KINDS, NAN_POLICIES, RESULT_RULES, Specs, SpecError, cpp_name, load_specs  # noqa: E402

OWNED_DIRS = ("generated", "docs/api")  # every file below these is the generator's


def cpp_string(text: str) -> str:
    """A C++ raw string literal holding text."""
    delim = "cupp"
    while f"){delim}\"" in text:
        delim += "_"
    return f'R"{delim}({text}){delim}"'


def render_all(specs: Specs, template_dir: str, root: str | None = None) -> dict[str, str]:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(template_dir), keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    dt = specs.dtypes
    env.filters["cpp_string"] = cpp_string
    env.filters["cpp_name"] = cpp_name
    env.filters["cpp_id"] = lambda name: dt.by_name[name].cpp
    env.filters["binding_body"] = binding_body
    index = {d.name: d.index for d in dt.dtypes}
    # Every arity a spec may have (1..3 inputs, 1..2 outputs): user kernels use them too.
    arities = [(nin, nout) for nin in (1, 2, 3) for nout in (1, 2)]
    kernel_templates = {a: env.get_template("kernels/elementwise.cu.j2").render(nin=a[0], nout=a[1]) for a in arities}
    ctx = dict(specs=specs, dtypes=dt.dtypes, dt=dt, promo=specs.promotion, ops=specs.ops, index=index,
               arities=arities, kernel_templates=kernel_templates, sources=specs.sources,
               weak_kinds=("bool", "int", "float", "complex"), families=specs.families,
               rules=dict(result=RESULT_RULES, nan=NAN_POLICIES, empty=EMPTY_KINDS),
               rule_tables=[("result", RESULT_RULES), ("nan", NAN_POLICIES), ("empty", EMPTY_KINDS)])
    out: dict[str, str] = {}

    def put(path, template, **extra):
        if path in out:
            raise SpecError(path, None, "produced twice (a routine family named like another page?)")
        out[path] = env.get_template(template).render(**ctx, **extra)

    put("generated/include/cupp/generated/type_id.hpp", "type_id.hpp.j2")
    put("generated/include/cupp/generated/dtype_constants.hpp", "dtype_constants.hpp.j2")
    put("generated/include/cupp/generated/ufuncs.hpp", "ufuncs.hpp.j2")
    put("generated/src/dtype_table.cpp", "dtype_table.cpp.j2")
    put("generated/src/promotion_tables.cpp", "promotion_tables.cpp.j2")
    put("generated/src/op_registry.cpp", "op_registry.cpp.j2")
    put("generated/tests/op_test_table.inc", "op_test_table.inc.j2")
    # The routine families of specs/routines/: one C++ file for all (a fixed name, compiled into
    # cupp::core), one page each.
    put("generated/include/cupp/generated/routine_specs.hpp", "routine_specs.hpp.j2")
    # Each library's routine tables: core's in generated/src/, a module's in generated/modules/<m>/.
    for module in ["core"] + sorted({f.module for f in specs.families} - {"core"}):
        path = "generated/src/routine_tables.cpp" if module == "core" else f"generated/modules/{module}/routine_tables.cpp"
        put(path, "routine_tables.cpp.j2", module=module,
            module_families=[f for f in specs.families if f.module == module])
    put("generated/registry/routine_registry.cpp", "routine_registry.cpp.j2")
    # The folding routines' C++ (folds: in a family with `folding:`): one header per family, one
    # source for all (a fixed name, compiled into cupp::core).
    for family in specs.families:
        if family.folding_routines():
            put(f"generated/include/cupp/generated/{family.name}_folds.hpp", "folds.hpp.j2", family=family)
    put("generated/src/folding_routines.cpp", "folding_routines.cpp.j2")
    # The declarations of the routines that say `declare: generated`, one header per family.
    for family in specs.families:
        if family.declared_routines():
            put(family.declarations_path(), "declarations.hpp.j2", family=family)
    # cupp eval's generated routine bindings (compiled into the cupp tool, not into cupp::core).
    put("generated/tools/eval_bindings.cpp", "eval_bindings.cpp.j2")
    # The benchmark's table (bench/cases.json and the modules' tables merged) and cupp_bench's
    # C++ of each case's expression.
    if root is not None and os.path.exists(os.path.join(root, "bench", "cases.json")):
        table, cases = translate_bench(root, specs)
        out["generated/bench/cases.json"] = format_bench_table(table)
        first: dict = {}  # cases of the same C++ (add over several dtypes) share one binder
        for i, c in enumerate(cases):
            c.index = first.setdefault((c.bind_cpp, tuple(c.setup_cpp)), i)
            c.shared = c.index != i
        put("generated/bench/bench_calls.cpp", "bench_calls.cpp.j2", cases=cases,
            headers=sorted({hd for c in cases for hd in c.headers}))
    for family in specs.families:
        put(f"docs/api/{family.name}.md", "api_routine_family.md.j2", family=family)
    put("docs/api/README.md", "api_index.md.j2")
    put("docs/api/dtypes.md", "api_dtypes.md.j2")
    put("docs/api/promotion.md", "api_promotion.md.j2")
    for op in specs.ops:
        put(f"docs/api/ufuncs/{op.name}.md", "api_op.md.j2", op=op)
    return out


def existing_files(root: str) -> set[str]:
    found = set()
    for d in OWNED_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in files:
                found.add(os.path.relpath(os.path.join(dirpath, f), root))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="the project's root (holds specs/)")
    parser.add_argument("--check", action="store_true", help="report stale outputs instead of writing")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    try:
        specs = load_specs(root)
    except SpecError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        outputs = render_all(specs, os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates"), root)
    except SpecError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    stale = []
    for rel, text in sorted(outputs.items()):
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            stale.append(("missing" if current is None else "differs", rel))
            if not args.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path + ".tmp", "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(path + ".tmp", path)
    for rel in sorted(existing_files(root) - set(outputs)):
        stale.append(("not produced by any spec", rel))
        if not args.check:
            os.remove(os.path.join(root, rel))
    if args.check:
        for why, rel in stale:
            print(f"stale: {rel} ({why})", file=sys.stderr)
        if stale:
            print("generated/ or docs/api/ is out of date: run codegen/generate.py --root . and commit", file=sys.stderr)
            return 1
        print(f"generated/ and docs/api/ are up to date ({len(outputs)} files from {len(specs.sources)} specs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
