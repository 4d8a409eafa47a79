# memory.gp - the layout both access figures (pattern, threads) share: output
# offsets drawn as they are, input offsets moved up by OB - O_s, so each input
# byte sits on the output byte it shares at the exact safe overlap and the
# diagonal shows how close the kernel comes to clobbering unread input.  The
# shared region [OB - O_s, OB] is shaded.  Defines the macros band and pair
# (legend entry of the region; the two accesses that set O_s).
# O_s here is the value safe for every interleaving of the layer's threads;
# when the interleaving that ran allowed more (osrun), its line is drawn too.
# Expects: ob, ib, os, osrun, datadir, have_pair and pairtitle (the pair's legend).
set xlabel 'time (guest instructions since the layer began)'
set ylabel 'byte offset (output: offset; input: offset + OB - O_s)'
set yrange [0:*]
set object 1 rect from graph 0, first (ob - os) to graph 1, first ob behind \
	fc rgb '#ffd966' fs solid 0.45 noborder
set arrow 1 from graph 0, first ob to graph 1, first ob nohead dt 2 lc rgb '#444444'
set arrow 2 from graph 0, first (ob - os) to graph 1, first (ob - os) nohead dt 3 lc rgb '#444444'
set label 1 'OB: output end' at graph 0.005, first ob offset 0,0.7 tc rgb '#444444' front
set label 2 'OB - O_s: input start' at graph 0.005, first (ob - os) offset 0,-0.8 \
	tc rgb '#444444' front
if (osrun != os) {
	set arrow 3 from graph 0, first (ob - osrun) to graph 1, first (ob - osrun) nohead dt 4 lw 2 lc rgb '#b22222'
	set label 3 sprintf('OB - %d: O_s of the interleaving that ran only', osrun) \
		at graph 0.995, first (ob - osrun) right offset 0,0.7 tc rgb '#b22222' front
}
bandtitle = sprintf('safe overlap [OB - O_s, OB] for any interleaving: O_s = %d bytes', os)
band = ", keyentry with boxes fc rgb '#ffd966' fs solid 0.45 title bandtitle"
pair = have_pair ? ", datadir.'/pair.csv' using 1:2 skip 1 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title pairtitle" : ""
# Envelopes (decimated) as filled bands between a bin's lowest and highest
# byte, at least minband tall (a few pixels) so that a band as thin as one
# output row per bin stays visible; single events as dots.  The including
# template defines colour(s).
ytop = ib + ob - os > ob ? ib + ob - os : ob
minband = ytop / 200.0
style = decimated ? "using 1:2:($3 < $2 + minband ? $2 + minband : $3) with filledcurves fs solid 0.8 noborder lc rgb colour(s)" : "using 1:2 with points pt 7 ps 0.45 lc rgb colour(s)"
