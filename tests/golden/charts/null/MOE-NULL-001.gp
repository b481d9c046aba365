# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,562 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-NULL-001.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'Prediction: Null-Fraction Sweep (EP, topk 2 and 8) (MOE-NULL-001)' at screen 0.5, screen 0.9644 center font ',12'
set label 2 'prediction: the model of commands the entry did not run (or ran elsewhere), not evidence' at screen 0.5, screen 0.9288 center
set label 3 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.8968 center
set label 4 'unvalidated (null route fraction 0.125, 0.250, 0.500): no error bar, the model is unchecked there' at screen 0.5, screen 0.8648 center
set origin 0.0000,0.1139
set size 1.0000,0.7117
unset title
set xlabel 'null route fraction'
set ylabel 'tokens/s (thousands)'
set yrange [0:1829.99642]
set format y '%g'
unset arrow
unset y2label
unset y2tics
set ytics mirror
set xtics (0, 0.125, 0.25, 0.5)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-NULL-001.dat' index 0 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-NULL-001.dat' index 0 using 1:($2/1e3) axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 2 lc rgb '#1f77b4' notitle, \
     'MOE-NULL-001.dat' index 1 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#d62728' notitle, \
     'MOE-NULL-001.dat' index 1 using 1:($2/1e3) axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 2 lc rgb '#d62728' notitle
unset label
set origin 0,0.0391
set size 1,0.0747
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
set label 1 'dashed lines: prediction, model (v5p)' at screen 0.5, screen 0.0178 center
plot NaN notitle, \
     keyentry with linespoints lw 2 pt 7 dt 2 lc rgb '#1f77b4' title 'k=2', \
     keyentry with linespoints lw 2 pt 7 dt 2 lc rgb '#d62728' title 'k=8'
unset label
unset multiplot
unset output
