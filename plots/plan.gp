# plan.gp - a planned model (the paper's figure 2, redrawn to be read): on
# top, the bytes live at each layer as steps, without overlaps (what any
# plan without them needs there) and with them (less the layer's diagonal
# share), under the peaks of the plans; the peak layer is marked.  Below,
# the arena map of each plan on one byte scale: every tensor a box, its
# live layers across and its bytes up, coloured by role (model input,
# activation in two shades so that neighbours differ, model output,
# scratch), labelled where the label fits (by plot_plan.c's estimate);
# with overlaps, each layer's diagonal share is the orange strip its dying
# input and its output hold together during that layer.  Layers count
# from 1.  Keys stand right of the panels, never over the data.
# Expects: plotsdir, datadir (use.csv: x,live,live_dmo; tensors.csv:
# x0,x1,plain_lo,plain_hi,dmo_lo,dmo_hi,colour; shared.csv: x0,x1,lo,hi;
# labels-{plain,dmo}{,-up}.csv: x,y,text), layers, xstep, peakplain,
# peaknoov, peakdmo, peaklayer, peaklive, peaktitle, nshared, nplain,
# nplainup, ndmo, ndmoup, lm, rm, b1..b3, t1..t3 (the panels, screen
# fractions), and what common.gp expects.
load plotsdir.'/common.gp'
unset title
set multiplot title title."\n".subtitle
set lmargin at screen lm
set rmargin at screen rm
set xrange [0.5 : layers + 0.5]
set xtics 0, xstep
set mxtics 1
if (xstep > 1) { set xtics add ('1' 1) }
top = peakplain > 0 ? peakplain : 1
eval si('y', top, 'B')
keyat(t) = sprintf("set key at screen rm + 0.015, screen %.6f left top vertical Left reverse nobox spacing 1.1 samplen 2", t)
# The peak layer, shaded in every panel.
# (Not for a single layer: it would be the whole panel.)
peakband = layers > 1 ? "set object 1 rect from peaklayer - 0.5, graph 0 to peaklayer + 0.5, graph 1 behind fc rgb '#fff2cc' fs solid 1 noborder" : 'unset object 1'
peakkey = layers > 1 ? ", keyentry with boxes fs solid 1 lc rgb '#fff2cc' title 'peak layer'" : ''

# 1: live bytes per layer.
set tmargin at screen t1
set bmargin at screen b1
set title 'bytes live at each layer' offset 0,-0.5
set ylabel 'live bytes'
set yrange [0 : top * 1.08]
eval keyat(t1)
eval peakband
noov = peaknoov < peakplain ? \
	", peaknoov with lines dt 3 lw 2 lc rgb '#08519c' title sprintf('peak, dmo placement: %d B', peaknoov)" : ''
plot datadir.'/use.csv' using 1:2 with steps lw 2 lc rgb '#3182bd' title 'live, no overlaps', \
	'' using 1:3 with steps lw 2 lc rgb '#d62728' title 'live, with overlaps', \
	peakplain with lines dt 2 lw 1.5 lc rgb '#3182bd' title sprintf('peak, greedy by size: %d B', peakplain) \
	@noov, \
	peakdmo with lines dt 2 lw 1.5 lc rgb '#d62728' title sprintf('peak with overlaps: %d B', peakdmo), \
	'+' using (peaklayer):(peaklive) every ::0::0 with points pt 7 ps 1.5 lc rgb 'black' title peaktitle

# 2 and 3: the arena maps, one byte scale.
set ylabel 'arena offset'
set yrange [0 : top * 1.02]
boxes(lo, hi) = sprintf("using (($1 + $2) / 2):(($%d + $%d) / 2):1:2:%d:%d", lo, hi, lo, hi)
fill = ":7 with boxxyerror fs solid 1 noborder lc rgb variable"
outline = " with boxxyerror fs empty lc rgb '#555555' lw 0.5"
labels(file, n, rotation) = n == 0 ? '' : \
	sprintf(", datadir.'/%s' using 1:2:3 with labels %s font ',8' tc rgb '#222222' notitle", file, rotation)
roles = "keyentry with boxes fs solid 1 lc rgb '#b2df8a' title 'model input', " . \
	"keyentry with boxes fs solid 1 lc rgb '#a6cee3' title 'activation', " . \
	"keyentry with boxes fs solid 1 lc rgb '#cab2d6' title 'model output', " . \
	"keyentry with boxes fs solid 1 lc rgb '#d9d9d9' title 'scratch buffer', " . \
	"keyentry with points pt -1 title 'labels: name, or #tensor index'".peakkey

set tmargin at screen t2
set bmargin at screen b2
set title sprintf('arena without overlaps (greedy by size): peak %d B', peakplain)
eval keyat(t2)
eval peakband
eval 'plot datadir."/tensors.csv" '.boxes(3, 4).fill.' notitle, '. \
	'"" '.boxes(3, 4).outline.' notitle, '. \
	'peakplain with lines dt 2 lw 1.5 lc rgb "#3182bd" title "peak", '.roles. \
	labels('labels-plain.csv', nplain, '').labels('labels-plain-up.csv', nplainup, 'rotate by 90')

set tmargin at screen t3
set bmargin at screen b3
set xlabel 'layer (execution order, from 1)'
set title sprintf('arena with diagonal overlaps: peak %d B', peakdmo)
eval keyat(t3)
eval peakband
shared = nshared == 0 ? '' : \
	", datadir.'/shared.csv' using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 with boxxyerror fs transparent pattern 5 border lc rgb '#e6550d' lw 1.5 title \"a layer's diagonal share\""
eval 'plot datadir."/tensors.csv" '.boxes(5, 6).fill.' notitle, '. \
	'"" '.boxes(5, 6).outline.' notitle'.shared.', '. \
	'peakdmo with lines dt 2 lw 1.5 lc rgb "#d62728" title "peak"'. \
	labels('labels-dmo.csv', ndmo, '').labels('labels-dmo-up.csv', ndmoup, 'rotate by 90')
unset multiplot
