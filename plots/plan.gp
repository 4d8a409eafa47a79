# plan.gp - a planned model (the paper's figure 2, redrawn to be read): on
# top, the bytes live at each layer as steps, without overlaps (what any
# plan without them needs there) and with them (less the layer's diagonal
# share), under the peaks of the plans; the peak layer (the most live
# bytes with overlaps) is marked.  Below, the arena map of each plan on one
# byte scale: every tensor a box, its live layers across and its bytes up,
# coloured by role (model input, activation in two shades so that
# neighbours differ, model output, scratch), labelled where the label fits
# (by plot_plan.c's estimate); with overlaps, each layer's diagonal share
# is the hatched strip its dying input and its output hold together during
# that layer.  Layers count from 1.  plot_plan.c lays the figure out for
# the canvas and font scale: the panels span the width under one legend
# for all of them (drawn last, as a plot of key entries only), so no key
# covers data.
# Expects: plotsdir, datadir (use.csv: x,live,live_dmo; tensors.csv:
# x0,x1,plain_lo,plain_hi,dmo_lo,dmo_hi,colour; shared.csv: x0,x1,lo,hi;
# labels-{plain,dmo}{,-up}.csv: x,y,text), layers, xstep, peakplain,
# peaknoov, peakdmo, peaklayer, peaklive, key1..key4 (the legend's entries
# of the peaks and the peak layer), nshared, nplain, nplainup, ndmo,
# ndmoup, lm, rm (the panels across), legendleft, legend (its top left),
# legendbottom,
# rows (its rows, filled column by column), colw (a column's width), and per panel P c<P> (caption), t<P>, b<P> (top,
# bottom), all screen fractions, and ystep<P> (bytes between y ticks);
# and what common.gp expects.
load plotsdir.'/common.gp'
unset title
set multiplot title title
set lmargin at screen lm
set rmargin at screen rm
set xrange [0.5 : layers + 0.5]
set xtics 0, xstep
# Layer 1 named too, unless the next tick is close.
if (xstep >= 5) { set xtics add ('1' 1) }
top = peakplain > 0 ? peakplain : 1
eval si('y', top, 'B')
unset key
# Panel P's caption and margins.
panel(p, caption) = sprintf("set label 1 '%s' at screen lm, screen %.6f left front; ", caption, value('c'.p)). \
	sprintf("set tmargin at screen %.6f; set bmargin at screen %.6f; ", value('t'.p), value('b'.p)). \
	sprintf("set ytics 0, %.17g", value('ystep'.p))
# The peak layer, shaded in every panel (not for a single layer: it would
# be the whole panel).
peakband = layers > 1 ? "set object 1 rect from peaklayer - 0.5, graph 0 to peaklayer + 0.5, graph 1 behind fc rgb '#fff2cc' fs solid 1 noborder" : 'unset object 1'

# 1: live bytes per layer.
eval panel(1, 'bytes live at each layer')
set ylabel 'live bytes'
set yrange [0 : top * 1.08]
eval peakband
noov = peaknoov < peakplain ? ", peaknoov with lines dt 3 lw 2 lc rgb '#08519c'" : ''
plot datadir.'/use.csv' using 1:2 with steps lw 2 lc rgb '#3182bd', \
	'' using 1:3 with steps lw 2 lc rgb '#d62728', \
	peakplain with lines dt 2 lw 1.5 lc rgb '#3182bd' @noov, \
	peakdmo with lines dt 2 lw 1.5 lc rgb '#d62728', \
	'+' using (peaklayer):(peaklive) every ::0::0 with points pt 7 ps 1.5 lc rgb 'black'

# 2 and 3: the arena maps, one byte scale.
set ylabel 'arena offset'
set yrange [0 : top * 1.02]
boxes(lo, hi) = sprintf("using (($1 + $2) / 2):(($%d + $%d) / 2):1:2:%d:%d", lo, hi, lo, hi)
fill = ":7 with boxxyerror fs solid 1 noborder lc rgb variable"
outline = " with boxxyerror fs empty lc rgb '#555555' lw 0.5"
labels(file, n, rotation) = n == 0 ? '' : \
	sprintf(", datadir.'/%s' using 1:2:3 with labels %s font ',8' tc rgb '#222222' notitle", file, rotation)
eval panel(2, sprintf('arena without overlaps (greedy): peak %d B', peakplain))
eval peakband
eval 'plot datadir."/tensors.csv" '.boxes(3, 4).fill.' notitle, '. \
	'"" '.boxes(3, 4).outline.' notitle, '. \
	'peakplain with lines dt 2 lw 1.5 lc rgb "#3182bd"'. \
	labels('labels-plain.csv', nplain, '').labels('labels-plain-up.csv', nplainup, 'rotate by 90')

eval panel(3, sprintf('with diagonal overlaps: peak %d B', peakdmo))
set xlabel 'layer (execution order, from 1)'
eval peakband
shared = nshared == 0 ? '' : \
	", datadir.'/shared.csv' using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4 with boxxyerror fs transparent pattern 5 border lc rgb '#e6550d' lw 1.5"
eval 'plot datadir."/tensors.csv" '.boxes(5, 6).fill.', '. \
	'"" '.boxes(5, 6).outline.shared.', '. \
	'peakdmo with lines dt 2 lw 1.5 lc rgb "#d62728"'. \
	labels('labels-dmo.csv', ndmo, '').labels('labels-dmo-up.csv', ndmoup, 'rotate by 90')

# The legend of all panels, in rows under the title: one key of entries
# only per column, each column at its own place (legendleft + c * colw;
# gnuplot's own column widths are wrong in SVG).
unset label 1
unset object 1
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen legend
# (Its plot area, invisible, as tall as the legend: gnuplot fits a key's
# rows into it.)
set bmargin at screen legendbottom
array kstyle[13]
array ktitle[13]
n = 0
entry(style, text) = sprintf("n = n + 1; kstyle[n] = \"%s\"; ktitle[n] = \"%s\"", style, text)
eval entry("with lines lw 2 lc rgb '#3182bd'", 'live, no overlaps')
eval entry("with lines lw 2 lc rgb '#d62728'", 'live, with overlaps')
eval entry("with lines dt 2 lw 1.5 lc rgb '#3182bd'", key1)
if (peaknoov < peakplain) { eval entry("with lines dt 3 lw 2 lc rgb '#08519c'", key2) }
eval entry("with lines dt 2 lw 1.5 lc rgb '#d62728'", key3)
eval entry("with points pt 7 ps 1.5 lc rgb 'black'", key4)
if (layers > 1) { eval entry("with boxes fs solid 1 lc rgb '#fff2cc'", 'peak layer') }
eval entry("with boxes fs solid 1 lc rgb '#b2df8a'", 'model input')
eval entry("with boxes fs solid 1 lc rgb '#a6cee3'", 'activation')
eval entry("with boxes fs solid 1 lc rgb '#cab2d6'", 'model output')
eval entry("with boxes fs solid 1 lc rgb '#d9d9d9'", 'scratch buffer')
eval entry("with boxes fs pattern 5 lc rgb '#e6550d'", "a layer's diagonal share")
eval entry("with points pt -1", 'labels: name or #tensor')
do for [c = 0 : (n - 1) / rows] {
	cmd = 'plot NaN notitle'
	do for [i = c * rows + 1 : (c + 1) * rows < n ? (c + 1) * rows : n] {
		cmd = cmd.', keyentry '.kstyle[i].' title "'.ktitle[i].'"'
	}
	eval sprintf("set key at screen %.6f, screen %.6f left top vertical Left reverse nobox samplen 2 spacing 1.1", legendleft + c * colw, legend)
	eval cmd
}
unset multiplot
