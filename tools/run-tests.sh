#!/usr/bin/env bash
# Builds everything and runs cupp's whole test suite: installs missing Debian packages
# (apt-get, as root or via sudo), checks that the committed generated/ and docs/api/ match the
# specs, configures, builds all targets, runs `ctest --output-on-failure -j<cores>` (GPU tests skip
# without a GPU) and prints how long the build and the tests took. Idempotent. .ci/run calls it.
#   usage: tools/run-tests.sh [BUILD_DIR]    (default build/, or $CUPP_BUILD_DIR)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/dev/setup.sh"
cupp_parse_args "$@"

cupp_install_packages
cupp_check_cuda

# Before the build, which would regenerate them: the committed outputs must be fresh.
cupp_log "checking that generated/ and docs/api/ are up to date with specs/"
if ! "$CUPP_PYTHON" "$CUPP_ROOT/codegen/generate.py" --root "$CUPP_ROOT" --check; then
  cupp_die "generated/ or docs/api/ is stale: build (or run $CUPP_PYTHON codegen/generate.py --root .) and commit them"
fi

cupp_configure "$CUPP_BUILD"
# ccache keys by paths relative to the source tree (and not by the build directory), so that the
# codegen pipeline check's clone (tests/scripts/check_codegen_pipeline.sh), whose build sits at the
# same place in its tree, finds this build's objects. (Relative paths in the depfiles are safe
# here: the generated files were checked fresh above, so no build step rewrites one.)
export CCACHE_BASEDIR=$CUPP_ROOT CCACHE_NOHASHDIR=true
build_start=$(date +%s)
cupp_build "$CUPP_BUILD"
build_s=$(( $(date +%s) - build_start ))

cupp_log "running the tests"
test_start=$(date +%s)
set +e
# In parallel: most entries run one thread (NVRTC compiles, the fuzzer's fixed 60 s), and the
# longest ones (the codegen pipeline's nested build, the unit shards) start first (COST).
(cd "$CUPP_BUILD" && ctest --output-on-failure -j "$(nproc)")
test_rc=$?
set -e
test_s=$(( $(date +%s) - test_start ))

echo
echo "build time: ${build_s} s"
echo "test time:  ${test_s} s"
exit $test_rc
