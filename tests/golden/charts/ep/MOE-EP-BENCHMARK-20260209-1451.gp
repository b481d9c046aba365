# moelog chart script: run gnuplot on this file in its directory to redraw the chart.
set terminal svg size 900,562 noenhanced font 'sans,11' background rgb 'white'
set output 'MOE-EP-BENCHMARK-20260209-1451.svg'
set datafile missing '?'
set grid ytics
unset key
set multiplot
set label 1 'Remat Leverage Sweep (Compact EP, No Shared) (MOE-EP-BENCHMARK-20260209-1451)' at screen 0.5, screen 0.9644 center font ',12'
set label 2 'error bars: where the measurement is expected (10th to 90th percentile of past model errors on the path)' at screen 0.5, screen 0.9288 center
set label 3 'the model cannot tell apart (within 5.5%): k=2: remat none = remat expert_mlp = remat combine; k=8: remat none' at screen 0.5, screen 0.8968 center
set label 4 '= remat combine' at screen 0.5, screen 0.8648 center
set origin 0.0000,0.1139
set size 1.0000,0.7117
unset title
set xlabel 'top-k (experts per token)'
set ylabel 'TF/s'
set yrange [0:391.706313]
set format y '%g'
unset arrow
unset y2label
unset y2tics
set ytics mirror
unset logscale x
set offsets 0, 0, 0, 0
set boxwidth 0.1333 absolute
set xrange [-0.6:1.6]
set xtics nomirror scale 0 ('k=2' 0, 'k=8' 1)
plot 'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($15):3 with boxes fill solid 0.85 noborder lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($16):4 with boxes fill empty border lw 2 lc rgb '#1f77b4' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($17):5 with boxes fill solid 0.85 noborder lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($18):6 with boxes fill empty border lw 2 lc rgb '#d62728' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($19):7 with boxes fill solid 0.85 noborder lc rgb '#2ca02c' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($20):8 with boxes fill empty border lw 2 lc rgb '#2ca02c' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($15):3:9:10 with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($17):5:11:12 with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle, \
     'MOE-EP-BENCHMARK-20260209-1451.dat' index 0 using ($19):7:13:14 with yerrorbars pt 0 lw 1.2 lc rgb '#222222' notitle
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
set key center center horizontal maxcols 3 samplen 3 spacing 1.2
set label 1 'filled bars: model (v5p); outlined bars: logbook' at screen 0.5, screen 0.0178 center
plot NaN notitle, \
     keyentry with boxes fill solid 0.85 noborder lc rgb '#1f77b4' title 'remat none', \
     keyentry with boxes fill solid 0.85 noborder lc rgb '#d62728' title 'remat expert_mlp', \
     keyentry with boxes fill solid 0.85 noborder lc rgb '#2ca02c' title 'remat combine'
unset label
unset multiplot
unset output
