# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,526 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-EP-BENCHMARK-20260209-1627.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'Top-k Scaling (Qwen-like EP Shapes) (MOE-EP-BENCHMARK-20260209-1627)' at screen 0.5, screen 0.9620 center font ',12'
set label 2 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.9240 center
set origin 0.0000,0.1217
set size 1.0000,0.7605
unset title
set xlabel 'top-k (experts per token)'
set ylabel 'TF/s'
set yrange [0:550.766959]
set format y '%g'
unset arrow
unset y2label
unset y2tics
set ytics mirror
set xtics (1, 2, 4, 6, 8)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-EP-BENCHMARK-20260209-1627.dat' index 0 using 1:2:3:4 axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1627.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1627.dat' index 1 using 1:2 axes x1y1 with points pt 6 ps 1.6 lw 2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1627.dat' index 2 using 1:2:3:4 axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1627.dat' index 2 using 1:2 axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1627.dat' index 3 using 1:2 axes x1y1 with points pt 6 ps 1.6 lw 2 lc rgb '#d62728' notitle
unset label
set origin 0,0.0418
set size 1,0.0798
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
set label 1 'lines: model (v5p); open circles: logbook' at screen 0.5, screen 0.0190 center
plot NaN notitle, \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#1f77b4' title 'H=2048, M=2048, shared 5632', \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#d62728' title 'H=3072, M=3072, shared 8192'
unset label
unset multiplot
unset output
