for a in 1 2 3 4 5 6 7 8 9 10; do for b in 1 2 3 4 5 6 7 8 9 10; do for c in 1 2 3 4 5 6 7 8 9 10; do for d in 1 2 3 4 5 6 7 8 9 10; do echo $a $b $c $d; done; done; done; done
