# MPI end-to-end checks: real ranks under `mpirun -np 4 --oversubscribe`.
# Skipped with a visible message only when mpirun is absent (CI installs it).
find_program(MOELOG_MPIRUN NAMES mpirun mpiexec)
if(NOT MOELOG_MPIRUN)
  message(WARNING "mpirun not found: the MPI tests (parallel_mpi_*) are NOT registered")
  return()
endif()
set(MOELOG_MPI_ENV
  "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;ASAN_OPTIONS=detect_leaks=0")
set(MOELOG_MPI_CHECK ${BASH_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/parallel_mpi_check.sh)
set(MOELOG_MPI4 ${MOELOG_MPIRUN} -np 4 --oversubscribe)

# Collectives of MpiComm against SimComm, and every EP/DP path against the
# single-device engine, inside the unit-test binary.
add_test(NAME parallel_mpi_unit
  COMMAND ${MOELOG_MPI4} $<TARGET_FILE:moelog_tests> --gtest_filter=ParallelMpi*)
set_tests_properties(parallel_mpi_unit PROPERTIES ENVIRONMENT "${MOELOG_MPI_ENV}" TIMEOUT 300)

# `moelog bench` under mpirun: numerics equal --parallel-mode none (the
# --check-numerics comparison), rank 0 prints alone.
set(MOELOG_MPI_SHAPE --tokens 64 --hidden 32 --mlp-dim 48 --experts 8 --topk 2 --iters 2 --warmup 0
  --distribution runs --queue-mode full --check-numerics --shared-expert-dim 16)
foreach(pass forward forward_backward)
  foreach(path compact_psum ring_ag_rs a2a)
    add_test(NAME parallel_mpi_bench_ep_${path}_${pass}
      COMMAND ${MOELOG_MPI_CHECK} numerics ${MOELOG_MPI4} $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE}
        --impl fast --dtype float32 --parallel-mode ep --ep-comm-path ${path} --bench-pass ${pass})
    set_tests_properties(parallel_mpi_bench_ep_${path}_${pass} PROPERTIES ENVIRONMENT "${MOELOG_MPI_ENV}" TIMEOUT 120)
  endforeach()
  add_test(NAME parallel_mpi_bench_dense_masked_${pass}
    COMMAND ${MOELOG_MPI_CHECK} numerics ${MOELOG_MPI4} $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE}
      --impl baseline --dtype bfloat16 --parallel-mode ep --ep-dispatch dense_masked --bench-pass ${pass})
  add_test(NAME parallel_mpi_bench_dp_${pass}
    COMMAND ${MOELOG_MPI_CHECK} numerics ${MOELOG_MPI4} $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE}
      --impl preweight --dtype bfloat16 --parallel-mode dp --bench-pass ${pass})
  add_test(NAME parallel_mpi_bench_mesh_${pass}
    COMMAND ${MOELOG_MPI_CHECK} numerics ${MOELOG_MPI4} $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE}
      --impl fast --dtype float32 --parallel-mode ep --mesh data=2,expert=2 --ep-comm-path a2a --bench-pass ${pass})
  set_tests_properties(parallel_mpi_bench_dense_masked_${pass} parallel_mpi_bench_dp_${pass}
    parallel_mpi_bench_mesh_${pass} PROPERTIES ENVIRONMENT "${MOELOG_MPI_ENV}" TIMEOUT 120)
endforeach()

# Bad input: the device count must be the world size (exit 2 on every rank).
add_test(NAME parallel_mpi_world_size_mismatch
  COMMAND ${MOELOG_MPI_CHECK} fail 2 "do not match the MPI world size 2"
    ${MOELOG_MPIRUN} -np 2 --oversubscribe $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE} --parallel-mode ep --devices 4)
set_tests_properties(parallel_mpi_world_size_mismatch PROPERTIES ENVIRONMENT "${MOELOG_MPI_ENV}" TIMEOUT 60)

# A failing rank ends the job with a clear error and no hang: an error on one
# rank (MPI_Abort with its message), a rank that hangs (the others' watchdog
# aborts after MOELOG_MPI_TIMEOUT_S), a rank that exits or is killed.
foreach(fault error hang exit kill)
  if(fault STREQUAL "error")
    set(regex "rank 1: .*injected fault")
  elseif(fault STREQUAL "hang")
    set(regex "did not complete within 5 s")
  else()
    set(regex "rank 1|process rank|exited|signal|killed")
  endif()
  add_test(NAME parallel_mpi_fault_${fault}
    COMMAND ${MOELOG_MPI_CHECK} fail nonzero "${regex}"
      ${MOELOG_MPI4} -x MOELOG_MPI_FAULT -x MOELOG_MPI_TIMEOUT_S $<TARGET_FILE:moelog> bench ${MOELOG_MPI_SHAPE}
      --impl fast --parallel-mode ep --ep-comm-path ring_ag_rs)
  set_tests_properties(parallel_mpi_fault_${fault} PROPERTIES
    ENVIRONMENT "${MOELOG_MPI_ENV};MOELOG_MPI_FAULT=1:${fault};MOELOG_MPI_TIMEOUT_S=5" TIMEOUT 60)
endforeach()
