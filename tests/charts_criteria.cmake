# End-to-end checks of moelog check / plot / new on copies of the seed logbooks.
add_test(NAME cli_charts_criteria
  COMMAND ${BASH_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/charts_criteria_cli.sh
          $<TARGET_FILE:moelog> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_charts_criteria)
set_tests_properties(cli_charts_criteria PROPERTIES PASS_REGULAR_EXPRESSION "CLI checks passed" TIMEOUT 120)
