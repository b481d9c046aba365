# End-to-end checks of check --suggest and moelog next (tests/cli/next).
add_test(NAME cli_next_suggest
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/next/next_cli.sh
          $<TARGET_FILE:moelog> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_next_suggest)
set_tests_properties(cli_next_suggest PROPERTIES PASS_REGULAR_EXPRESSION "CLI checks passed" TIMEOUT 300)
