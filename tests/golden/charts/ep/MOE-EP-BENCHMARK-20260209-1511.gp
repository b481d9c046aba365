# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,506 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-EP-BENCHMARK-20260209-1511.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'MLP Width Sweep (topk=8, routed-only) (MOE-EP-BENCHMARK-20260209-1511)' at screen 0.5, screen 0.9605 center font ',12'
set label 2 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.9209 center
set origin 0.0000,0.0870
set size 1.0000,0.7905
unset title
set xlabel 'expert MLP width'
set ylabel 'TF/s'
set yrange [0:516.336219]
set format y '%g'
set y2label 'tokens/s (thousands)'
set y2tics
set ytics nomirror
set y2range [0:949.698184]
set format y2 '%g'
set xtics (1408, 1536, 1792, 2048)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-EP-BENCHMARK-20260209-1511.dat' index 0 using 1:2:3:4 axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 1 using 1:2 axes x1y1 with points pt 6 ps 1.6 lw 2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 2 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y2 with yerrorbars pt 0 lw 1.2 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 2 using 1:($2/1e3) axes x1y2 with linespoints lw 2 pt 7 ps 0.9 dt 2 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 3 using 1:($2/1e3) axes x1y2 with points pt 6 ps 1.6 lw 2 lc rgb '#d62728' notitle
unset label
set origin 0,0
set size 1,0.0870
unset title
unset xlabel
unset ylabel
unset y2label
unset border
unset xtics
unset ytics
unset y2tics
unset grid
unset logscale x
set offsets 0, 0, 0, 0
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxcols 4 samplen 3 spacing 1.2
plot NaN notitle, \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#1f77b4' title 'TF/s (left axis)', \
     keyentry with linespoints lw 2 pt 7 dt 2 lc rgb '#d62728' title 'tokens/s (right axis)', \
     keyentry with linespoints lw 2 pt 7 lc rgb '#555555' title 'model (v5p)', \
     keyentry with points pt 6 ps 1.6 lw 2 lc rgb '#555555' title 'logbook'
unset multiplot
unset output
