#!/usr/bin/env bash
# Builds cupp and shows what it is: installs missing Debian packages (apt-get, as root or via
# sudo), configures and builds the `cupp` program, then runs `cupp info` and `cupp demo`.
# Idempotent: run it again and it only rebuilds what changed.
#   usage: tools/run-demo.sh [BUILD_DIR]     (default build/, or $CUPP_BUILD_DIR)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/dev/setup.sh"
cupp_parse_args "$@"

cupp_install_packages
cupp_check_cuda
cupp_configure "$CUPP_BUILD"
cupp_build "$CUPP_BUILD" cupp_tool

echo
echo "\$ cupp info"
"$CUPP_BUILD/tools/cupp" info
echo
echo "\$ cupp demo"
"$CUPP_BUILD/tools/cupp" demo
