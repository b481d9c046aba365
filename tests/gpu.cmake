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
