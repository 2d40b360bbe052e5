#!/usr/bin/env bash
# Proves the spec -> codegen -> build pipeline end to end, in a temporary clone of the repository:
#  1. changing a loop body in a spec and rebuilding changes the generated kernel source;
#  2. adding a spec file (no CMake edit) gives a new op, API page and test;
#  3. removing it removes all three;
#  4. a folding reduction is 2 files: its spec entry and its reference cases (no C++ at all);
#  5. a hand-written routine in a module is 4: spec entry (declare: generated), implementation,
#     device code, reference cases;
#  6. a one-routine family in a new module folder is that folder (device code embedded, an
#     environment variable documented in its README, a bench case whose call is generated and
#     compiled into cupp_bench), its spec, its cases and its reference data
#     with their checksums;
#  and the clone's diff for 4-6 names only those paths and generated outputs (no shared file).
# usage: check_codegen_pipeline.sh SOURCE_DIR [PYTHON]
set -euo pipefail
src=$(cd "$1" && pwd)
py=${2:-python3}
work=$(mktemp -d /tmp/cupp-pipeline.XXXXXX)
[ -n "${CUPP_KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

git clone -q "$src" "$work/clone"
# The clone has what is committed; bring uncommitted spec/codegen/runtime edits along so the check
# runs on the tree under test.
(cd "$src" && git diff HEAD --binary) | (cd "$work/clone" && git apply --allow-empty 2>/dev/null || true)
git -C "$work/clone" add -A
git -C "$work/clone" -c user.name=check -c user.email=check@localhost commit -qm "tree under test" >/dev/null || true
clone=$work/clone
# The build sits at build/ in the clone, where tools/run-tests.sh builds the source tree, and ccache
# keys by paths relative to the tree: the first build takes the main build's objects from the cache
# (run-tests.sh sets the same two variables). With relative paths the depfiles name headers as
# Ninja does not (build.ninja has absolute paths), so Ninja would miss a header that codegen
# rewrites during a build: each step runs codegen first, and the build finds nothing to rewrite.
build=$clone/build
export CCACHE_BASEDIR=$clone CCACHE_NOHASHDIR=true
# Only what the check reads is built: the tool and the spec tests, without the nvcc-compiled CUB
# object (the pipeline is about specs, and the main build compiles that object already).
cmake -S "$clone" -B "$build" -G Ninja -DPython3_EXECUTABLE="$py" -DCUPP_BUILD_TESTS=ON \
  -DCUPP_AOT_ACCELERATORS=OFF -DCUPP_AOT_KERNELS=OFF >/dev/null
step_start=$SECONDS
step() {
  "$py" "$clone/codegen/generate.py" --root "$clone" >/dev/null || fail "codegen failed after: $1"
  cmake --build "$build" --target cupp_tool cupp_spec_tests >/dev/null || fail "build failed after: $1"
  echo "built after $1 in $((SECONDS - step_start)) s"
  step_start=$SECONDS
}

step "configure"
before=$("$build/tools/cupp" ops add --source)
grep -q 'out0 = in0 + in1;' <<<"$before" || fail "add's kernel source lacks its spec body"

# 1. A changed loop body reaches the kernel source.
sed -i 's/^body: out0 = in0 + in1;$/body: out0 = in1 + in0;/' "$clone/specs/ufuncs/add.yaml"
grep -q 'out0 = in1 + in0;' "$clone/specs/ufuncs/add.yaml" || fail "could not edit add.yaml"

# 2. A new spec file gives a new op, page and test, with no CMake edit (one rebuild for 1 and 2).
cat >"$clone/specs/ufuncs/pipeline_negate.yaml" <<'SPEC'
name: pipeline_negate
doc: Numerical negative, element-wise.
nin: 1
nout: 1
body: out0 = -in0;
loops:
  - sig: T -> T
    each: {T: number}
SPEC
step "editing add.yaml and adding pipeline_negate.yaml"
after=$("$build/tools/cupp" ops add --source)
[ "$before" != "$after" ] || fail "kernel source unchanged after editing the spec"
grep -q 'out0 = in1 + in0;' <<<"$after" || fail "kernel source lacks the new body"
grep -q 'in1 + in0' "$clone/docs/api/ufuncs/add.md" || fail "API page not regenerated"
echo "ok: editing a loop body changed the generated kernel source and page"
grep -q 'pipeline_negate' <<<"$("$build/tools/cupp" ops pipeline_negate)" || fail "new op not in the registry"
grep -q 'out0 = -in0;' <<<"$("$build/tools/cupp" ops pipeline_negate --source)" || fail "new op has no kernel source"
[ -f "$clone/docs/api/ufuncs/pipeline_negate.md" ] || fail "no API page for the new op"
# (The list is captured first: `grep -q` on a pipe would end the writer early, and pipefail
# would report that as a failure.)
tests=$("$build/tests/cupp_spec_tests" --gtest_list_tests)
grep -q 'RegistryMatchesSpec/pipeline_negate' <<<"$tests" || fail "no test instance for the new op"
"$build/tests/cupp_spec_tests" --gtest_brief=1 --gtest_filter='Generated/OpSpec.*/pipeline_negate' >/dev/null ||
  fail "the new op's generated tests failed"
git -C "$clone" diff --quiet -- CMakeLists.txt cmake runtime/CMakeLists.txt tests/CMakeLists.txt ||
  fail "CMake files were edited"
echo "ok: a new spec file gave a new op, API page and passing tests"

# 3. Removing the spec removes the op, its page and its test.
rm "$clone/specs/ufuncs/pipeline_negate.yaml"
step "removing pipeline_negate.yaml"
if "$build/tools/cupp" ops pipeline_negate >/dev/null 2>&1; then fail "removed op still in the registry"; fi
[ ! -e "$clone/docs/api/ufuncs/pipeline_negate.md" ] || fail "removed op's page still there"
tests=$("$build/tests/cupp_spec_tests" --gtest_list_tests)
if grep -q 'RegistryMatchesSpec/pipeline_negate' <<<"$tests"; then fail "removed op's test still there"; fi
echo "ok: removing the spec removed the op, its page and its test"

# ---- 4-6: routines, each declared once in a spec (issue 23). What they change is compared with
# the commit below, so steps 1-3 do not count.
git -C "$clone" add -A
git -C "$clone" -c user.name=check -c user.email=check@localhost commit -qm "after steps 1-3" >/dev/null || true
base=$(git -C "$clone" rev-parse HEAD)
conf=$clone/tests/conformance
insert_before() {  # insert_before FILE MARKER TEXT: TEXT goes before the first line equal to MARKER
  "$py" - "$@" <<'PY'
import sys
path, marker, text = sys.argv[1:4]
lines = open(path).read().split("\n")
i = lines.index(marker)
open(path, "w").write("\n".join(lines[:i] + text.rstrip("\n").split("\n") + lines[i:]))
PY
}

# 4. A folding reduction: its entry (folds: maximum) and its reference cases.
insert_before "$clone/specs/routines/reductions.yaml" "methods:" '  - name: pipeline_max
    signature: "pipeline_max(a: array, axis: axes = None, out: out = None, keepdims: bool = False, initial: number = <no value>, where: where = True)"
    call: "cupp::pipeline_max({a}, cupp::reduce_options{.axis = {axis}, .keepdims = {keepdims}, .initial = {initial}, .where = {where}})"
    summary: the largest element (the pipeline check'"'"'s folding reduction)
    folds: maximum
    empty: {raises: ValueError, message: zero-size array to reduction operation maximum which has no identity}
    result: keep
    nan: propagate'
insert_before "$conf/make_reductions_ref.py" 'if __name__ == "__main__":' '# The pipeline check'"'"'s reduction is NumPy'"'"'s max under another name.
routine_ref.HELPERS["pipeline_max"] = np.max
EVAL_CASES["pipeline_max_f4_axis0"] = Eval("pipeline_max(a, axis=0)", a=V((3, 4), "float32"))
'

# 5. A hand-written routine of the linalg module: its entry (declare: generated, so the header is
# not edited), its implementation, its device code (embedded by the module template), its cases.
cat >>"$clone/specs/routines/linalg.yaml" <<'SPEC'
  - name: pipeline_double
    signature: "pipeline_double(x: array)"
    summary: twice x, float64 (the pipeline check's hand-written routine)
    call: "cupp::linalg::pipeline_double({x})"
    declare: generated
SPEC
cat >"$clone/linalg/src/pipeline_double.cpp" <<'CPP'
// The pipeline check's hand-written routine of the linalg module: 2 * x (float64) by its own kernel.
#include "compiler/launch.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "linalg_device_headers.hpp"

namespace cupp::linalg {
ndarray pipeline_double(const cupp::ndarray& x) {
  if (x.dtype() != cupp::float64) throw TypeError("pipeline_double: float64 only");
  ndarray out = x.copy();
  if (out.size() == 0) return out;
  const auto& module = cupp::detail::routine_module(out.device(), {"linalg:pipeline_double", 0}, [] {
    return cupp::detail::routine_program{.name = "cupp_linalg_pipeline",
                                         .source = "#include <cupp/linalg/pipeline_double.cuh>\n",
                                         .kernels = {"cupp_linalg_double"},
                                         .headers = detail::embedded_headers(),
                                         .headers_digest = detail::embedded_headers_digest()};
  });
  double* data = static_cast<double*>(out.data());
  long long n = out.size();
  void* args[] = {&data, &n};
  cupp::detail::launch_1d(module.function(0), n, args, out.device());
  return out;
}
}  // namespace cupp::linalg
CPP
mkdir -p "$clone/linalg/device/cupp/linalg"
cat >"$clone/linalg/device/cupp/linalg/pipeline_double.cuh" <<'CUH'
// The pipeline check's linalg device code.
#pragma once
#include <cupp/dev/launch.cuh>
extern "C" __global__ void cupp_linalg_double(double* x, long long n) { CUPP_GRID_LOOP(i, n) { x[i] *= 2; } }
CUH
insert_before "$conf/make_linalg_ref.py" 'if __name__ == "__main__":' 'import types  # noqa: E402
import numpy as np  # noqa: E402
# NumPy'"'"'s linalg plus the pipeline check'"'"'s routine.
routine_ref.HELPERS["linalg"] = types.SimpleNamespace(**vars(np.linalg), pipeline_double=lambda x: x + x)
EVAL_CASES["pipeline_double_f8"] = Eval("linalg.pipeline_double(x)", x=V((2, 3)))
'

# 6. A new module folder with a one-routine family (the module's files, its spec, its cases).
mkdir -p "$clone/pipemod/include/cupp" "$clone/pipemod/src"
echo 'cupp_add_module(pipemod)  # the pipeline check'"'"'s module' >"$clone/pipemod/module.cmake"
cat >"$clone/pipemod/include/cupp/pipemod.hpp" <<'CPP'
// The pipeline check's module (cupp::pipemod).
#pragma once
#include <span>
#include <vector>
#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"
namespace cupp::pipemod {
ndarray negated(const ndarray& x);  // -x
std::vector<module_info_row> info();
}  // namespace cupp::pipemod
namespace cupp {
std::span<const routine_info> pipemod_routines() noexcept;
}  // namespace cupp
CPP
cat >"$clone/pipemod/src/pipemod.cpp" <<'CPP'
// The pipeline check's module: one routine, its cupp info row, and an NVRTC program of its own
// device code (pipemod/device/, embedded by the module template).
#include <cstdlib>

#include "compiler/launch.hpp"
#include "cupp/pipemod.hpp"
#include "cupp/ufunc.hpp"
#include "pipemod_device_headers.hpp"
namespace cupp::pipemod {
ndarray negated(const ndarray& x) { return cupp::negative(x); }
std::vector<module_info_row> info() {
  const char* label = std::getenv("CUPP_PIPEMOD_LABEL");  // documented in pipemod/README.md
  return {{"pipeline", label ? label : "check"}};
}
cupp::detail::routine_program negate_program() {
  return {.name = "cupp_pipemod", .source = "#include <cupp/pipemod/negate.cuh>\n", .kernels = {"cupp_pipemod_negate"},
          .headers = detail::embedded_headers(), .headers_digest = detail::embedded_headers_digest()};
}
}  // namespace cupp::pipemod
CPP
mkdir -p "$clone/pipemod/device/cupp/pipemod" "$clone/tests/conformance/pipemod"
cat >"$clone/pipemod/device/cupp/pipemod/negate.cuh" <<'CUH'
// The pipeline check's module device code.
#pragma once
#include <cupp/dev/launch.cuh>
extern "C" __global__ void cupp_pipemod_negate(double* x, long long n) { CUPP_GRID_LOOP(i, n) { x[i] = -x[i]; } }
CUH
printf '# pipemod\n\n## Environment\n\n| Variable | Default | Effect |\n|---|---|---|\n| `CUPP_PIPEMOD_LABEL` | `check` | its cupp info row |\n' \
  >"$clone/pipemod/README.md"
# committed reference data of the module, with its checksums (a CTest found by glob checks them)
mkdir -p "$clone/pipemod/bench"  # a bench case of the module's own: merged into the table, its call generated
cat >"$clone/pipemod/bench/cases.json" <<'JSON'
{"cases": [{"name": "pipemod_negated", "expr": "pipemod.negated(x0)", "kind": "pipemod", "op": "negated", "metric": "time",
  "target": null, "inputs": [{"dtype": "float64", "shape": [1024]}], "out": {"dtype": "float64", "given": false}}]}
JSON
echo "pipemod reference data" >"$clone/tests/conformance/pipemod/data.txt"
(cd "$clone/tests/conformance/pipemod" && sha256sum data.txt >SHA256SUMS)
cat >"$clone/specs/routines/pipemod.yaml" <<'SPEC'
family: pipemod
module: pipemod
doc: The pipeline check's module family.
header: cupp/pipemod.hpp
table: pipemod_routines

routines:
  - name: negated
    signature: "negated(x: array)"
    summary: minus x (the pipeline check's module routine)
    call: "cupp::pipemod::negated({x})"
SPEC
cat >"$conf/make_pipemod_ref.py" <<'PY'
#!/usr/bin/env python3
"""The pipeline check's module cases: pipemod.negated is numpy.negative."""
import sys
import types

import numpy as np

import routine_ref
from routine_ref import Eval, V

routine_ref.HELPERS["pipemod"] = types.SimpleNamespace(negated=np.negative)
EVAL_CASES = {"negated_f8": Eval("pipemod.negated(x)", x=V((4,)))}

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES))
PY
# configure again: the new module folder is found by the top-level glob of */module.cmake
cmake "$build" >/dev/null || fail "configure after adding the module"
step "adding a folding reduction, a hand routine and a module"
cupp=$build/tools/cupp
listing=$("$cupp" ops)
for name in pipeline_max linalg.pipeline_double pipemod.negated; do
  grep -q "^$name " <<<"$listing" || fail "cupp ops does not list $name"
  entry=$("$cupp" ops "$name")
  grep -q "cupp eval: generated binding" <<<"$entry" || fail "cupp ops $name: no generated binding"
  # the binding answers from the binder (no GPU): a missing argument, not an unknown name
  err=$("$cupp" eval "$name()" -o /dev/null 2>&1 || true)
  grep -q "missing required argument" <<<"$err" || fail "cupp eval $name(): $err"
done
grep -q 'pipeline_max' "$clone/docs/api/reductions.md" || fail "docs/api/reductions.md lacks pipeline_max"
grep -q 'pipeline_double' "$clone/docs/api/linalg.md" || fail "docs/api/linalg.md lacks pipeline_double"
[ -f "$clone/docs/api/pipemod.md" ] || fail "no docs/api/pipemod.md"
grep -q 'pipemod' "$clone/docs/api/README.md" || fail "the API index lacks pipemod"
grep -q 'ndarray pipeline_max(const ndarray& a, const reduce_options& options = {});' \
  "$clone/generated/include/cupp/generated/reductions_folds.hpp" || fail "pipeline_max is not declared"
grep -q '^  pipemod ' <<<"$("$cupp" info)" || fail "cupp info lists no pipemod module"
grep -q 'cupp/pipemod/negate.cuh' "$build/pipemod_embedded/pipemod_device_headers.cpp" ||
  fail "the module's device header is not embedded"
"$py" "$clone/tests/scripts/check_module_environment.py" "$clone" >/dev/null ||
  fail "the module's environment variable is not documented in its README"
grep -q 'pipeline  *from-env' <<<"$(CUPP_PIPEMOD_LABEL=from-env "$cupp" info)" || fail "cupp info lacks the module's row"
checksums=$(ctest --test-dir "$build" -R '^conformance_checksums_pipemod$' 2>&1 || true)  # (captured: see above)
grep -q '100% tests passed, 0 tests failed out of 1' <<<"$checksums" ||
  fail "the module's reference data checksums are not checked: $checksums"
for family in reductions linalg pipemod; do
  "$py" "$conf/make_${family}_ref.py" "$work/ref-$family" >/dev/null || fail "make_${family}_ref.py failed"
done
grep -q '"pipeline_max_f4_axis0"' "$work/ref-reductions/eval/manifest.json" || fail "no pipeline_max case"
grep -q '"pipeline_double_f8"' "$work/ref-linalg/eval/manifest.json" || fail "no pipeline_double case"
grep -q 'ndarray pipeline_double(const cupp::ndarray& x);' \
  "$clone/generated/modules/linalg/include/cupp/generated/linalg_declarations.hpp" || fail "pipeline_double is not declared"
grep -q 'cupp/linalg/pipeline_double.cuh' "$build/linalg_embedded/linalg_device_headers.cpp" ||
  fail "linalg's device header is not embedded"
grep -q '"negated_f8"' "$work/ref-pipemod/eval/manifest.json" || fail "no pipemod case"
grep -q '"name": "pipemod_negated"' "$clone/generated/bench/cases.json" || fail "the module's bench case is not in the table"
grep -q 'return cupp::pipemod::negated(x0);' "$clone/generated/bench/bench_calls.cpp" ||
  fail "the module's bench case has no generated call"
cmake --build "$build" --target cupp_bench >/dev/null || fail "cupp_bench does not build with the module's case"
echo "built cupp_bench in $((SECONDS - step_start)) s"
bench=$("$build/bench/cupp_bench" 2>&1) || fail "cupp_bench: $bench"
grep -qE '[0-9]+ cases in .*generated/bench/cases.json|"case": "pipemod_negated"' <<<"$bench" ||
  fail "cupp_bench does not read the merged table: $bench"
git -C "$clone" add -A
changed=$(git -C "$clone" diff --cached --name-only "$base")
echo "$changed" | sed 's/^/  changed: /'
bad=$(grep -Ev '^(specs/|linalg/|pipemod/|generated/|docs/api/|tests/[a-z]+/(linalg|pipemod)/|tests/conformance/make_(reductions|linalg|pipemod)_ref\.py$)' <<<"$changed" || true)
[ -z "$bad" ] || fail "files outside the allowed paths changed: $bad"
hand=$(grep -Ev '^(generated/|docs/api/)' <<<"$changed")
[ "$(grep -cE '^specs/routines/reductions.yaml$|^tests/conformance/make_reductions_ref.py$' <<<"$hand")" = 2 ] ||
  fail "the folding reduction is not exactly its spec entry and its cases"
[ "$(grep -cE '^(linalg/src/pipeline_double.cpp|linalg/device/cupp/linalg/pipeline_double.cuh)$' <<<"$hand")" = 2 ] &&
  [ "$(grep -c '^linalg/' <<<"$hand")" = 2 ] || fail "the hand routine is not its implementation and device code (+ spec, cases)"
echo "ok: a folding reduction (2 files), a hand routine (4, with device code) and a module family (with a bench case) are listed by cupp ops, cupp eval, docs/api and the bench table"
