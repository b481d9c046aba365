# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,544 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-EP-BENCHMARK-20260209-1340.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'EP vs Non-EP (shared shape, forward_backward, random) (MOE-EP-BENCHMARK-20260209-1340)' at screen 0.5, screen 0.9632 center font ',12'
set label 2 'TF/s summed over the chips of a run: no EP on 1 chip, EP on 4 chips' at screen 0.5, screen 0.9265 center
set label 3 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.8934 center
set origin 0.0000,0.1176
set size 1.0000,0.7353
unset title
set xlabel 'top-k (experts per token)'
set ylabel 'TF/s'
set yrange [0:223.326293]
set format y '%g'
unset arrow
unset y2label
unset y2tics
set ytics mirror
unset logscale x
set offsets 0, 0, 0, 0
set boxwidth 0.2000 absolute
set xrange [-0.6:1.6]
set xtics nomirror scale 0 ('k=2' 0, 'k=8' 1)
plot 'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($11):3 with boxes fill solid 0.85 noborder lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($12):4 with boxes fill empty border lw 2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($13):5 with boxes fill solid 0.85 noborder lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($14):6 with boxes fill empty border lw 2 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($11):3:7:8 with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle, \
     'MOE-EP-BENCHMARK-20260209-1340.dat' index 0 using ($13):5:9:10 with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle
unset label
set origin 0,0.0404
set size 1,0.0772
unset title
unset xlabel
unset ylabel
unset y2label
unset border
unset xtics
unset ytics
unset y2tics
unset grid
unset arrow
unset logscale x
set offsets 0, 0, 0, 0
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxcols 2 samplen 3 spacing 1.2
set label 1 'filled bars: model (v5p); outlined bars: logbook' at screen 0.5, screen 0.0184 center
plot NaN notitle, \
     keyentry with boxes fill solid 0.85 noborder lc rgb '#1f77b4' title 'no EP', \
     keyentry with boxes fill solid 0.85 noborder lc rgb '#d62728' title 'EP'
unset label
unset multiplot
unset output
