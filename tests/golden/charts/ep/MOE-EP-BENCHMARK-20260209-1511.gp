# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,444 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-EP-BENCHMARK-20260209-1511.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'MLP Width Sweep (topk=8, routed-only) (MOE-EP-BENCHMARK-20260209-1511)' at screen 0.5, screen 0.9550 center font ',12'
set label 2 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.9099 center
set label 3 'the tokens/s (thousands) axis starts at 500, not 0 (break mark at its foot)' at screen 0.5, screen 0.8694 center
set origin 0.0000,0.1441
set size 0.5000,0.6757
set title 'TF/s'
set xlabel 'expert MLP width'
set ylabel 'TF/s'
set yrange [0:516.336219]
set format y '%g'
unset arrow
unset y2label
unset y2tics
set ytics mirror
set xtics (1408, 1536, 1792, 2048)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-EP-BENCHMARK-20260209-1511.dat' index 0 using 1:2:3:4 axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 1 using 1:2 axes x1y1 with points pt 6 ps 1.6 lw 2 lc rgb '#1f77b4' notitle
unset label
set origin 0.5000,0.1441
set size 0.5000,0.6757
set title 'tokens/s'
set xlabel 'expert MLP width'
set ylabel 'tokens/s (thousands)'
set yrange [500:889.698184]
set format y '%g'
unset arrow
set arrow 1 from graph -0.012, graph 0.012 to graph 0.012, graph 0.036 nohead lw 1.5 front
set arrow 2 from graph -0.012, graph 0.036 to graph 0.012, graph 0.060 nohead lw 1.5 front
unset y2label
unset y2tics
set ytics mirror
set xtics (1408, 1536, 1792, 2048)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-EP-BENCHMARK-20260209-1511.dat' index 2 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 2 using 1:($2/1e3) axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1511.dat' index 3 using 1:($2/1e3) axes x1y1 with points pt 6 ps 1.6 lw 2 lc rgb '#1f77b4' notitle
set origin 0,0.0495
set size 1,0.0946
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
set key center center horizontal maxcols 1 samplen 3 spacing 1.2
set label 1 'lines: model (v5p); open circles: logbook' at screen 0.5, screen 0.0225 center
plot NaN notitle, \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#1f77b4' title 'model (v5p)'
unset label
unset multiplot
unset output
