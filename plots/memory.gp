# memory.gp - the layout both access figures (pattern, threads) share: output
# offsets drawn as they are, input offsets moved up by OB - O_s, so each input
# byte sits on the output byte it shares at the exact safe overlap and the
# diagonal shows how close the kernel comes to clobbering unread input.  The
# shared region [OB - O_s, OB] is shaded.
# O_s here is the value dmo calls safe, by the rule osrule (as-run, or for a
# layer open while several threads lived, any-split or static-split;
# docs/threads.md); when the interleaving that ran allowed more (osrun), its
# line is drawn too.
# Defines for the including template: instyle and outstyle (how a series of
# input-side and of output-side accesses is drawn, given colour(s)), inkey
# and outkey (their legend samples), and extras (the legend entries of the
# band, the lines and the pair of accesses that sets O_s).
# Expects: ob, ib, os, osrun, osrule, known (0: an incomplete layer, no O_s to show),
# tlo, thi (the time axis), datadir, decimated, have_pair, pairtitle,
# have_sources (pair.csv's third column names each access's source line)
# and pairtime0, pairtime1 (the pair's times).
set xlabel 'time (guest instructions since the layer began)'
# 2 % of room around the data: marks at the first or last instant, or on
# the first or last byte, stay clear of the frame.
xpad = (thi - tlo) / 50.0
set xrange [tlo - xpad : thi + xpad]
eval si('x', thi, '')
if (thi - tlo < 10) { set xtics 1 }
ytop = ib + ob - os > ob ? ib + ob - os : ob
ypad = ytop / 50.0
set yrange [-ypad : ytop + ypad]
eval si('y', ytop, 'B')
# The horizontal lines are tagged in the right margin, clear of the data
# and of the tick labels; a tag is moved down when it would touch the one
# above it (lines closer than about a text line).  The margin fits the
# longest tag.
runtag = sprintf('OB - %d', osrun)
set rmargin 3 + (known && osrun != os ? strlen(runtag) : 8)
tagstep = ytop / 28.0
below(y, above) = y > above - tagstep ? above - tagstep : y
tag(n, text, y, colour) = sprintf("set label %d '%s' at graph 1, first %.17g offset 1,0 left tc rgb '%s' front", n, text, y, colour)
ink = '#444444'
runink = '#b22222'
set arrow 1 from graph 0, first ob to graph 1, first ob nohead dt 2 lc rgb ink
eval tag(1, 'OB', ob, ink)
obline = ", keyentry with lines dt 2 lc rgb ink title 'OB: output end'"
if (known) {
	set ylabel 'byte offset (output: offset; input: offset + OB - O_s)'
	set object 1 rect from graph 0, first (ob - os) to graph 1, first ob behind \
		fc rgb '#ffd966' fs solid 0.45 noborder
	set arrow 2 from graph 0, first (ob - os) to graph 1, first (ob - os) nohead dt 3 lc rgb ink
	intag = below(ob - os, ob)
	eval tag(2, 'OB - O_s', intag, ink)
	# Legend entries are kept short: gnuplot gives every key column the
	# width of the longest entry, and two columns must fit side by side.
	bandtitle = osrun != os ? sprintf('safe (%s): [OB - O_s, OB], O_s = %d B', osrule, os) \
		: sprintf('safe overlap [OB - O_s, OB]: O_s = %d B', os)
	lines = obline.", keyentry with lines dt 3 lc rgb ink title 'OB - O_s: input start'"
	band = ", keyentry with boxes fc rgb '#ffd966' fs solid 0.45 title bandtitle"
	if (osrun != os) {
		set arrow 3 from graph 0, first (ob - osrun) to graph 1, first (ob - osrun) nohead dt 4 lw 2 lc rgb runink
		eval tag(3, runtag, below(ob - osrun, intag), runink)
		runtitle = sprintf('OB - %d: O_s of the interleaving that ran only', osrun)
		lines = lines.", keyentry with lines dt 4 lw 2 lc rgb runink title runtitle"
	}
} else {
	# An incomplete layer has no O_s: the input is drawn above the output.
	set ylabel 'byte offset (output: offset; input: offset + OB)'
	lines = obline
	band = ''
}
pair = have_pair ? ", datadir.'/pair.csv' using 1:2 skip 1 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title pairtitle" : ""
# The source lines beside the rings, the first access's above its ring
# and the second's below, so that two rings close together keep their
# labels apart; right of a ring in the left half of the time axis, left
# of one in the right half, so that no label leaves the canvas.
sourceside(row) = value(sprintf('pairtime%d', row)) > (tlo + thi) / 2.0 ? 'right offset -1.5' : 'left offset 1.5'
sourcelabel(row) = sprintf(", datadir.'/pair.csv' every ::%d::%d using 1:2:3 skip 1 with labels %s,%s tc rgb 'black' font ',9' notitle", row, row, sourceside(row), row == 0 ? '0.9' : '-0.9')
if (have_pair && have_sources) { pair = pair.sourcelabel(0).sourcelabel(1) }
extras = band.lines.pair
# Input-side accesses are drawn first, larger and half transparent; the
# output side's on top, small and opaque.  Where a kernel writes the very
# bytes it has just read (an element-wise op in place), the output's marks
# sit inside the input's and both stay visible.  Envelopes (decimated) are
# bands between a bin's lowest and highest byte; a band thinner than a
# marker would be (inband for the input, outband for the output) is drawn
# that tall, centred on its bytes, so that a band as thin as one row per
# bin still shows.  Thicker bands keep their exact edges: the gap between
# the input's lower edge and the output is what the figure is about.
translucent(c) = '#80'.c[2:7]
inband = ytop / 70.0
outband = ytop / 200.0
lo(band) = $3 - $2 < band ? ($2 + $3 - band) / 2 : $2
hi(band) = $3 - $2 < band ? ($2 + $3 + band) / 2 : $3
if (decimated) {
	instyle = "using 1:(lo(inband)):(hi(inband)) with filledcurves fs transparent solid 0.6 noborder lc rgb colour(s)"
	outstyle = "using 1:(lo(outband)):(hi(outband)) with filledcurves fs solid 0.9 noborder lc rgb colour(s)"
	inkey = "with boxes fs transparent solid 0.6 noborder"
	outkey = "with boxes fs solid 0.9 noborder"
} else {
	instyle = "using 1:2 with points pt 7 ps 1.3 lc rgb translucent(colour(s))"
	outstyle = "using 1:2 with points pt 7 ps 0.5 lc rgb colour(s)"
	inkey = "with points pt 7 ps 1.3"
	outkey = "with points pt 7 ps 0.5"
}
# The plot element of one side's series, with a comma after it, or '' when
# the side has none: gnuplot 5.4 runs a plot's 'for [s in LIST]' once even
# for an empty LIST, and then looks for a file named '.csv' (a layer killed
# before its first output write has input series only).  NAME and STYLE
# name the variables holding the list and the style.
sideplot(name, style, title) = words(value(name)) == 0 ? '' : \
	sprintf("for [s in %s] datadir.'/'.s.'.csv' @%s %s, ", name, style, title)
