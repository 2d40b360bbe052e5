# cupp_eval: the pure (host-only, no GPU) parts of `cupp eval`: tokenizer, parser, syntax
# errors, the --batch line splitter and line loop, and Python scalar arithmetic. Included by tools/CMakeLists.txt
# (the tool) and by tests/extra_tests.cmake (the unit tests), whichever comes first.
include_guard(GLOBAL)
set(_cupp_eval_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(cupp_eval STATIC
  ${_cupp_eval_dir}/syntax_error.cpp ${_cupp_eval_dir}/tokenizer.cpp ${_cupp_eval_dir}/ast.cpp
  ${_cupp_eval_dir}/parser.cpp ${_cupp_eval_dir}/shell_split.cpp ${_cupp_eval_dir}/scalar.cpp
  ${_cupp_eval_dir}/batch.cpp)
target_include_directories(cupp_eval PUBLIC ${_cupp_eval_dir})
find_package(Threads REQUIRED)
target_link_libraries(cupp_eval PUBLIC cupp::core Threads::Threads)
target_compile_features(cupp_eval PUBLIC cxx_std_20)
target_compile_options(cupp_eval PRIVATE -Wall -Wextra -Wpedantic)
