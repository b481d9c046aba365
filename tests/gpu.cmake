# End-to-end checks of the modeled GPU targets (`moelog bench --target h100`,
# `moelog model validate --target gpu`).
add_test(NAME gpu_bench_runs COMMAND moelog bench --target h100 --tokens 65536 --hidden 7168 --mlp-dim 2048
         --experts 256 --topk-list 6,8 --ep 16 --nodes 2 --dtype fp8 --bench-pass forward_backward)
set_tests_properties(gpu_bench_runs PROPERTIES PASS_REGULAR_EXPRESSION
                     "stage name=dispatch_bwd.*RESULT .*topk=8 hardware=h100")
add_test(NAME gpu_bench_bad_flag_exit2 COMMAND sh -c
         "$<TARGET_FILE:moelog> bench --target h100 --topk-list 6,x; test $? -eq 2")
add_test(NAME gpu_model_validate COMMAND moelog model validate --target gpu --no-cv)
set_tests_properties(gpu_model_validate PROPERTIES PASS_REGULAR_EXPRESSION "coverage: 100% of [0-9]+ rows")
add_test(NAME gpu_bench_target_equals COMMAND moelog bench --target=b200 --kernel ep_dispatch --tokens 32768 --ep 8
         --dtype fp8 --json)
# DeepEP V1 on its default 24 SMs (12 sending): the SMs bind on B200, not NVLink 5
set_tests_properties(gpu_bench_target_equals PROPERTIES PASS_REGULAR_EXPRESSION "\"target\":\"b200\".*\"bound\":\"sm\"")
# The held-out measurements are never fitted on: `model fit` refuses them (exit 2, nothing written), and
# `model validate` on them reports without the leave-one-out refits.
add_test(NAME gpu_model_fit_refuses_heldout COMMAND sh -c
         "out=\"$0\"/gpu_heldout_params.json; rm -f \"$out\"; $<TARGET_FILE:moelog> model fit --target gpu --csv \"$1\" --out \"$out\"; code=$?; test $code -eq 2 && test ! -e \"$out\""
         ${CMAKE_CURRENT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/data/gpu_heldout_measurements.csv)
add_test(NAME gpu_model_validate_heldout_no_refit COMMAND moelog model validate --target gpu
         --csv ${PROJECT_SOURCE_DIR}/data/gpu_heldout_measurements.csv)
set_tests_properties(gpu_model_validate_heldout_no_refit PROPERTIES PASS_REGULAR_EXPRESSION
                     "leave-one-source-version-out: not run \\(a held-out set is never fitted on\\)")
# `next` on a GPU target ranks configurations by the GPU model; a logbook's pinned GPU is the default target
# of `update` and `next` (the region's caption says so) and an explicit --target wins.
add_test(NAME gpu_next_target COMMAND moelog next ${PROJECT_SOURCE_DIR}/tests/golden/gpu_deepep/input.md
         --target h100 -n 3)
set_tests_properties(gpu_next_target PROPERTIES PASS_REGULAR_EXPRESSION
                     "GPU target h100 \\(--target\\).*configurations predicted.*\\| 1 \\| [0-9]+ \\([0-9]+x[0-9]+\\) \\| ep_")
add_test(NAME gpu_pinned_target COMMAND sh -c
         "d=\"$0\"/gpu_pinned; rm -rf \"$d\"; mkdir -p \"$d\" && sed 's/^topic: ep-kernels-h100$/&\\nhardware: 2 nodes of 8x B200/' \"$1\" > \"$d\"/lb.md && grep -q '^hardware: 2 nodes of 8x B200' \"$d\"/lb.md && $2 next \"$d\"/lb.md -n 1 | grep -q 'GPU target b200 (pinned by the logbook, front matter, hardware:)' && $2 update \"$d\"/lb.md && grep -q 'Modeled on `b200`.*the target this logbook pins: front matter, hardware:)' \"$d\"/lb.md && $2 update \"$d\"/lb.md --target h100 && grep -q 'Modeled on `h100` (hardware file h100.json, parameters gpu_params.json, model [a-z0-9-]*);' \"$d\"/lb.md"
         ${CMAKE_CURRENT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/tests/golden/gpu_deepep/input.md $<TARGET_FILE:moelog>)
# A logbook that pins a GPU but records no GPU harness command keeps the default target (v5p) for update and next.
add_test(NAME gpu_pinned_without_gpu_commands COMMAND sh -c
         "d=\"$0\"/gpu_pinned_v5p; rm -rf \"$d\"; mkdir -p \"$d\" && sed 's/^- Goal: check that loops expand into one row per iteration.$/&\\n- Hardware: 8x H100/' \"$1\" > \"$d\"/lb.md && grep -q '^- Hardware: 8x H100' \"$d\"/lb.md && $2 update \"$d\"/lb.md --dry-run 2>&1 | grep -q 'target v5p' && ! $2 update \"$d\"/lb.md --dry-run 2>&1 | grep -q 'pinned by the logbook'"
         ${CMAKE_CURRENT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/tests/golden/loop_logbook/input.md $<TARGET_FILE:moelog>)
