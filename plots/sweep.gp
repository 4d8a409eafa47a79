# sweep.gp - a formula sweep (`dmo sweep`): the formula's O_s against the
# exact O_s of every configuration.  On or below the diagonal the formula is
# a safe lower bound; above it (red) it would corrupt the kernel's output.
# Expects: datafile (exact_os,formula_os,unsafe), and what common.gp expects.
load plotsdir.'/common.gp'
set xlabel 'exact O_s (bytes, measured under the tool)'
set ylabel 'formula O_s (bytes)'
set size ratio -1
# One scale on both axes (the diagonal at 45 degrees) with 2 % of room
# around it, so that points at 0 stay clear of the frame.
stats datafile using 1:2 skip 1 nooutput
top = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
top = top > 0 ? top : 1
set xrange [-top / 50.0 : top * 1.02]
set yrange [-top / 50.0 : top * 1.02]
plot datafile using 1:(column(3) == 0 ? column(2) : NaN) skip 1 with points pt 7 ps 0.6 \
	lc rgb '#1f77b4' title 'safe or tight (formula <= exact)', \
     datafile using 1:(column(3) != 0 ? column(2) : NaN) skip 1 with points pt 9 ps 1.2 \
	lc rgb '#d62728' title 'UNSAFE (formula > exact)', \
     x with lines dt 2 lc rgb '#555555' title 'formula = exact'
