# MPI end-to-end checks: real ranks under `mpirun -np 4 --oversubscribe`.
# Skipped with a visible message only when mpirun is absent (CI installs it).
find_program(MOELOG_MPIRUN NAMES mpirun mpiexec)
if(NOT MOELOG_MPIRUN)
  message(WARNING "mpirun not found: the MPI tests (parallel_mpi_*) are NOT registered")
  return()
endif()
set(MOELOG_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;ASAN_OPTIONS=detect_leaks=0;OMPI_MCA_rmaps_base_oversubscribe=1")

# Collectives of MpiComm against SimComm, inside the unit-test binary.
add_test(NAME parallel_mpi_collectives
  COMMAND ${MOELOG_MPIRUN} -np 4 --oversubscribe $<TARGET_FILE:moelog_tests> --gtest_filter=ParallelMpi*)
set_tests_properties(parallel_mpi_collectives PROPERTIES ENVIRONMENT "${MOELOG_MPI_ENV}" TIMEOUT 120)
