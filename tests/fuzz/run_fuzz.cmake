# Runs the .npy/.npz fuzzer for 60 s (cmake -P) from a fresh working corpus plus the seeds;
# fails on any finding (libFuzzer's non-zero exit) and prints the run's statistics.
#   -DFUZZER=<executable> -DWORK=<scratch dir> -DSEEDS=<seed corpus>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
execute_process(
  COMMAND ${FUZZER} -max_total_time=60 -max_len=10000 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus ${SEEDS}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB findings ${WORK}/artifacts/*)
  message(FATAL_ERROR "the fuzzer found a problem (exit ${rc}); reproducers: ${findings}")
endif()
