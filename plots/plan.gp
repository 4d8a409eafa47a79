# plan.gp - a model's tensor arena over its layers, without and with
# diagonal overlaps, side by side (the paper's figure 2).  Each tensor is a
# box: its live range of layers across, its bytes in the arena up; where a
# dying input overlaps its layer's output, the two boxes share that strip.
# Expects: plotsdir, datadir (plan.csv: first,last,plain_lo,plain_hi,dmo_lo,
# dmo_hi,colour), layers, peakplain, peakdmo, the peaks' captions, and what
# common.gp expects.
load plotsdir.'/common.gp'
unset title
set key inside top right vertical Left reverse box opaque height 0.5
set multiplot layout 1,2 title title."\n".subtitle
set xlabel 'layer (execution order)'
set ylabel 'arena offset (bytes)'
set xrange [-0.5:layers - 0.5]
set yrange [0:peakplain * 1.18] # headroom for the key
set style fill transparent solid 0.55 border lc rgb '#333333'
# x: the live range widened to whole layers; y: the tensor's bytes.
plainbox = '(($1 + $2) / 2):(($3 + $4) / 2):($1 - 0.45):($2 + 0.45):3:4:7'
dmobox = '(($1 + $2) / 2):(($5 + $6) / 2):($1 - 0.45):($2 + 0.45):5:6:7'
# The boxes' colours only tell neighbours apart: the key's sample is grey.
tensors = ", keyentry with boxes fc rgb '#bbbbbb' title 'a tensor: live layers across, bytes up'"
set title plaincaption
plot datadir.'/plan.csv' using @plainbox skip 1 with boxxyerror lc variable notitle @tensors, \
	peakplain with lines dt 2 lw 2 lc rgb '#d62728' title 'peak'
set title dmocaption
plot datadir.'/plan.csv' using @dmobox skip 1 with boxxyerror lc variable notitle @tensors, \
	peakdmo with lines dt 2 lw 2 lc rgb '#d62728' title 'peak'
unset multiplot
