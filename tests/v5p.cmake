# End-to-end checks of the modeled v5p target and `moelog model`.
add_test(NAME v5p_bench_runs COMMAND moelog bench --target v5p --tokens 4096 --hidden 1024 --mlp-dim 768
         --experts 16 --topk-list 2,8 --impl fused_w13 --distribution random --parallel-mode ep --stage-timing)
set_tests_properties(v5p_bench_runs PROPERTIES PASS_REGULAR_EXPRESSION "stage_bound .*RESULT distribution=random")
add_test(NAME v5p_bad_hardware_exit2 COMMAND sh -c
         "$<TARGET_FILE:moelog> bench --target v5p --hardware no_such_chip --topk 2 --impl fast --distribution random; test $? -eq 2")
add_test(NAME v5p_model_validate COMMAND moelog model validate --no-cv
         --csv ${PROJECT_SOURCE_DIR}/data/seed_measurements.csv)
set_tests_properties(v5p_model_validate PROPERTIES PASS_REGULAR_EXPRESSION "in_sample +n=[0-9]+ mape=")
