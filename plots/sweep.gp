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
stats datafile using (strlen(strcol(2))) skip 1 nooutput
longest = STATS_max
# The layout in screen fractions from the font's size (a line 17 pixels,
# a character 7, times fontscale): the title's two lines and the legend's
# row above the panels, the x tick labels (names turned by 45 degrees, or
# numbers) and the x label below; left, the y tick and axis labels.
line = 17.0 * fontscale / height
ch = 7.0 * fontscale / width
left = 13 * ch
right = 1 - 3 * ch
# Name the configurations while their turned names stand apart.
named = n <= 40 && n * 1.6 * line * height <= (right - left) * width
below = named ? (longest * ch * width * 0.72 + 17.0 * fontscale) / height + line : 2.6 * line
set multiplot title title
# The panels fill the canvas: the key is a row (or three) between the
# title and the top panel.
set key at screen 0.5, screen 1 - (titlelines + 1.2) * line center top horizontal Left reverse nobox
set lmargin at screen left
set rmargin at screen right
# Room around the points, so that a point on 0 or at the first or last
# configuration stays clear of the frame.
set offsets 0.5, 0.5, graph 0.08, graph 0.08
set xrange [first - 0.5 : last + 0.5]
if (named) { set xtics rotate by 45 right noenhanced } else { set xtics out }
# The legend's three entries in one row when they fit (about 30
# characters each, as gnuplot reckons), else in as many rows as they need.
keyrows = ceil(90 * ch / (right - left))
keyrows = keyrows > 3 ? 3 : keyrows
top = 1 - (titlelines + 1.6 + 1.2 * keyrows) * line
mid = (top + below) / 2
resid(u) = column(5) - column(4)
pct = '100.0 * (column(5) - column(4)) / (column(3) > 0 ? column(3) : 1)'
safe(v) = column(6) == 0 && column(5) != column(4) ? v : NaN
tight(v) = column(5) == column(4) ? v : NaN
unsafe(v) = column(6) != 0 ? v : NaN
ticks = named ? ':xtic(2)' : ''
set tmargin at screen top
set bmargin at screen mid + 0.4 * line
set format x ''
set ylabel 'residual (bytes)'
set ytics nomirror
stats datafile using (resid(0)) skip 1 nooutput
eval si('y', abs(STATS_min) > abs(STATS_max) ? STATS_min : STATS_max, 'B')
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' dt 2
plot datafile using 1:(safe(resid(0))) skip 1 with points pt 7 ps 0.8 lc rgb '#1f77b4' title 'safe (below 0)', \
	'' using 1:(tight(resid(0))) skip 1 with points pt 6 ps 1.2 lw 2 lc rgb '#2ca02c' title 'tight (0)', \
	'' using 1:(unsafe(resid(0))) skip 1 with points pt 9 ps 1.6 lc rgb '#d62728' title 'UNSAFE (above 0)'
set tmargin at screen mid - 0.4 * line
set bmargin at screen below
set format x '%.0f'
set format y '%g %%'
set xlabel named ? '' : 'configuration (grid order)'
set ylabel 'residual (% of OB)'
unset arrow 1
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' dt 2
eval 'plot datafile using 1:(safe(@pct))'.ticks.' skip 1 with points pt 7 ps 0.8 lc rgb "#1f77b4" notitle, '. \
	'"" using 1:(tight(@pct)) skip 1 with points pt 6 ps 1.2 lw 2 lc rgb "#2ca02c" notitle, '. \
	'"" using 1:(unsafe(@pct)) skip 1 with points pt 9 ps 1.6 lc rgb "#d62728" notitle'
unset multiplot
