#!/usr/bin/env bash
# Proves the spec -> codegen -> build pipeline end to end, in a temporary clone of the repository:
#  1. changing a loop body in a spec and rebuilding changes the generated kernel source;
#  2. adding a spec file (no CMake edit) gives a new op, API page and test;
#  3. removing it removes all three.
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
build=$work/build
# No CCACHE_BASEDIR here: it makes compilers write relative paths into depfiles, and Ninja then
# misses that a regenerated header (an absolute path in build.ninja) is a dependency.
# Only what the check reads is built: the tool and the spec tests, without the nvcc-compiled CUB
# object (the pipeline is about specs, and the main build compiles that object already).
cmake -S "$clone" -B "$build" -G Ninja -DPython3_EXECUTABLE="$py" -DCUPP_BUILD_TESTS=ON \
  -DCUPP_AOT_ACCELERATORS=OFF >/dev/null
step() { cmake --build "$build" --target cupp_tool cupp_spec_tests >/dev/null || fail "build failed after: $1"; }

step "configure"
before=$("$build/tools/cupp" ops add --source)
grep -q 'out0 = in0 + in1;' <<<"$before" || fail "add's kernel source lacks its spec body"

# 1. A changed loop body reaches the kernel source.
sed -i 's/^body: out0 = in0 + in1;$/body: out0 = in1 + in0;/' "$clone/specs/ufuncs/add.yaml"
grep -q 'out0 = in1 + in0;' "$clone/specs/ufuncs/add.yaml" || fail "could not edit add.yaml"
step "editing add.yaml"
after=$("$build/tools/cupp" ops add --source)
[ "$before" != "$after" ] || fail "kernel source unchanged after editing the spec"
grep -q 'out0 = in1 + in0;' <<<"$after" || fail "kernel source lacks the new body"
grep -q 'in1 + in0' "$clone/docs/api/ufuncs/add.md" || fail "API page not regenerated"
echo "ok: editing a loop body changed the generated kernel source and page"

# 2. A new spec file gives a new op, page and test, with no CMake edit.
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
step "adding pipeline_negate.yaml"
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
