# Bad-input checks for the document layer.
# - Always: replay tests/fuzz/corpus (truncated files, binary junk, unterminated
#   fences, nested regions, duplicate IDs, ...) through the fuzz target's checks.
# - Always: replay tests/fuzz/plan_corpus through the planner's consent oracle.
# - MOELOG_FUZZ=ON (clang): libFuzzer targets; ctest runs the document one for
#   30 s (label slow); .ci/test runs both for a fixed number of inputs.
add_executable(moelog_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cc
                                  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/parse_rewrite_fuzz.cc)
target_compile_options(moelog_fuzz_replay PRIVATE ${MOELOG_WARNINGS})
target_link_libraries(moelog_fuzz_replay PRIVATE moelog_logbook)
add_test(NAME fuzz_corpus_replay COMMAND moelog_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)
# .ci/test's libFuzzer stage replays this corpus under clang's ASan+UBSan before
# it fuzzes, so the sanitizer suite skips this replay (label fuzz_seeds).
set_tests_properties(fuzz_corpus_replay PROPERTIES LABELS fuzz_seeds)

# The planner's consent oracle (plan_fuzz.cc) over tests/fuzz/plan_corpus: one
# attack form per file, and commands from the seed logbooks.
add_executable(moelog_plan_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cc
                                       ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/plan_fuzz.cc)
target_compile_options(moelog_plan_fuzz_replay PRIVATE ${MOELOG_WARNINGS})
target_link_libraries(moelog_plan_fuzz_replay PRIVATE moelog_logbook)
add_test(NAME fuzz_plan_corpus_replay COMMAND moelog_plan_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/plan_corpus)

if(MOELOG_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MOELOG_FUZZ=ON needs clang (-DCMAKE_CXX_COMPILER=clang++)")
  endif()
  target_compile_options(moelog_logbook PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
  add_executable(moelog_fuzz ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/parse_rewrite_fuzz.cc)
  target_compile_options(moelog_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(moelog_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(moelog_fuzz PRIVATE moelog_logbook)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_work)
  add_test(NAME fuzz_parse_rewrite COMMAND moelog_fuzz -max_total_time=30 -rss_limit_mb=2048
           ${CMAKE_CURRENT_BINARY_DIR}/fuzz_work ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)
  set_tests_properties(fuzz_parse_rewrite PROPERTIES LABELS slow)
  add_executable(moelog_plan_fuzz ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/plan_fuzz.cc)
  target_compile_options(moelog_plan_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(moelog_plan_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(moelog_plan_fuzz PRIVATE moelog_logbook)
endif()
