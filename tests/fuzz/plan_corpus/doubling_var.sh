X=ab
X=$X$X
X=$X$X
X=$X$X
X=$X$X
X=$X$X
X=$X$X
X=$X$X
X=$X$X
for a in $X; do for b in $X; do echo $a$b; done; done
