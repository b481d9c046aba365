# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,524 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-NULL-001.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'Null-Fraction Sweep (EP, topk 2 and 8) (MOE-NULL-001)' at screen 0.5, screen 0.9618 center font ',12'
set label 2 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.9237 center
set label 3 'unvalidated (null route fraction 0.125, 0.250, 0.500): no error bar, the model is unchecked there' at screen 0.5, screen 0.8893 center
set origin 0.0000,0.0840
set size 1.0000,0.7634
unset title
set xlabel 'null route fraction'
set ylabel 'tokens/s (thousands)'
set yrange [0:1829.99642]
set format y '%g'
unset y2label
unset y2tics
set ytics mirror
set xtics (0, 0.125, 0.25, 0.5)
unset logscale x
set offsets graph 0.04, graph 0.04, 0, 0
plot 'MOE-NULL-001.dat' index 0 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#1f77b4' notitle, \
     'MOE-NULL-001.dat' index 0 using 1:($2/1e3) axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#1f77b4' notitle, \
     'MOE-NULL-001.dat' index 1 using 1:($2/1e3):($3/1e3):($4/1e3) axes x1y1 with yerrorbars pt 0 lw 1.2 lc rgb '#d62728' notitle, \
     'MOE-NULL-001.dat' index 1 using 1:($2/1e3) axes x1y1 with linespoints lw 2 pt 7 ps 0.9 dt 1 lc rgb '#d62728' notitle
unset label
set origin 0,0
set size 1,0.0840
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
set key center center horizontal maxcols 3 samplen 3 spacing 1.2
plot NaN notitle, \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#1f77b4' title 'k=2', \
     keyentry with linespoints lw 2 pt 7 dt 1 lc rgb '#d62728' title 'k=8', \
     keyentry with linespoints lw 2 pt 7 lc rgb '#555555' title 'model (v5p)'
unset multiplot
unset output
