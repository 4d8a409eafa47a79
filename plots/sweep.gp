# sweep.gp - a formula sweep (`dmo sweep`): the residual formula - exact of
# every configuration, in bytes (top) and in % of its OB (bottom), against
# the configuration in grid order.  At or below 0 the formula is a safe
# lower bound (on 0: tight); above it (red triangles) it would let the
# kernel corrupt unread input by that many bytes: an excess of a few bytes
# on an O_s of thousands shows here, where a formula-against-exact plot
# puts it on its diagonal.  Few configurations are named on the x axis by
# the keys that vary between them; many are numbered.
# Expects: datafile (config,label,out_bytes,exact_os,formula_os,unsafe),
# and what common.gp expects.
load plotsdir.'/common.gp'
unset title
stats datafile using 1 skip 1 nooutput
n = STATS_records
first = STATS_min
last = STATS_max
set multiplot title title."\n".subtitle
# The panels fill the canvas: the key is one row between the title and
# the top panel, the x tick labels (named configurations, turned) below
# the bottom one.
set key at screen 0.5, screen 0.925 center top horizontal Left reverse nobox
set lmargin at screen 0.09
set rmargin at screen 0.97
# Room around the points, so that a point on 0 or at the first or last
# configuration stays clear of the frame.
set offsets 0.5, 0.5, graph 0.08, graph 0.08
set xrange [first - 0.5 : last + 0.5]
named = n <= 40
if (named) { set xtics rotate by 30 right noenhanced } else { set xtics out }
resid(u) = column(5) - column(4)
pct = '100.0 * (column(5) - column(4)) / (column(3) > 0 ? column(3) : 1)'
safe(v) = column(6) == 0 && column(5) != column(4) ? v : NaN
tight(v) = column(5) == column(4) ? v : NaN
unsafe(v) = column(6) != 0 ? v : NaN
ticks = named ? ':xtic(2)' : ''
set tmargin at screen 0.885
set bmargin at screen 0.53
set format x ''
set ylabel 'formula - exact (bytes)'
set ytics nomirror
stats datafile using (resid(0)) skip 1 nooutput
eval si('y', abs(STATS_min) > abs(STATS_max) ? STATS_min : STATS_max, 'B')
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' dt 2
plot datafile using 1:(safe(resid(0))) skip 1 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'safe (below 0)', \
	'' using 1:(tight(resid(0))) skip 1 with points pt 6 ps 1.2 lw 2 lc rgb '#2ca02c' title 'tight (0)', \
	'' using 1:(unsafe(resid(0))) skip 1 with points pt 9 ps 1.6 lc rgb '#d62728' title 'UNSAFE (above 0)'
set tmargin at screen 0.50
set bmargin at screen (named ? 0.17 : 0.09)
set format x '%.0f'
set format y '%g %%'
set xlabel named ? '' : 'configuration (grid order)'
set ylabel 'formula - exact (% of OB)'
unset arrow 1
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' dt 2
eval 'plot datafile using 1:(safe(@pct))'.ticks.' skip 1 with points pt 7 ps 0.8 lc rgb "#1f77b4" notitle, '. \
	'"" using 1:(tight(@pct)) skip 1 with points pt 6 ps 1.2 lw 2 lc rgb "#2ca02c" notitle, '. \
	'"" using 1:(unsafe(@pct)) skip 1 with points pt 9 ps 1.6 lc rgb "#d62728" notitle'
unset multiplot
