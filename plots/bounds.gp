# bounds.gp - the paper's step curves of a layer: minR(i), the smallest input
# offset accessed after the i-th output write, and maxW(i), the largest output
# end written up to it.  O_s = OB + min_i (minR(i) - maxW(i)): maxW moved up by
# O_s - OB touches minR at the step that sets O_s (marked).  With an op spec,
# the analytic linear bound on minR (docs/formulas.md, section 3) is drawn too.
# The curves are those of the interleaving that ran, so they use osrun, its
# O_s.  Expects: plotsdir, datadir (curves.csv: step,min_read,max_write), ob,
# ib, osrun, steps, known (0: an incomplete layer, no O_s),
# have_critical, crit_step, crit_minr, crit_maxw, have_analytic (then es, rho,
# lag, analytic_os), and what common.gp expects.
load plotsdir.'/common.gp'
set xlabel 'step i (output writes so far)'
set ylabel 'byte offset (input for minR, output for maxW)'
mx(a, b) = a > b ? a : b
# 2 % of room around the curves: a curve at offset 0 or on the first step
# stays clear of the frame.
ymax = mx(mx(ib, ob), 1)
set xrange [-steps / 50.0 : steps * 1.02]
set yrange [-ymax / 50.0 : ymax * 1.04]
eval si('x', steps, '')
eval si('y', ymax, 'B')
if (steps < 10) { set xtics 1 }
f = datadir.'/curves.csv'
analytic = ''
if (have_analytic) {
	atitle = sprintf('analytic linear bound on minR: es*(rho*i - L), rho = %.4g, L = %.4g elements: O_s >= %d', rho, lag, analytic_os)
	analytic = ", mx(0, es * (rho * x - lag)) with lines dt 4 lw 2 lc rgb '#17becf' title atitle"
}
critical = ''
if (have_critical) {
	# Its values go into the key, not beside the arrow, where they would
	# cross the curves.
	set arrow 5 from crit_step, crit_maxw to crit_step, crit_minr heads lw 2 lc rgb 'black' front
	crittitle = sprintf('step %d sets O_s: OB + minR - maxW = %d', crit_step, ob + crit_minr - crit_maxw)
	critical = ", keyentry with vectors heads lw 2 lc rgb 'black' title crittitle"
}
# An incomplete layer has no O_s to move maxW by; with O_s = OB the moved
# curve is maxW itself.
shifted = known && osrun != ob ? ", '' using 1:($3 - ob + osrun) skip 1 with @curve lw 1 dt 2 lc rgb '#d62728' title 'maxW(i) - OB + O_s'" : ''
set samples 1000
# A single step makes no step curve: its values are drawn as points.
curve = steps > 1 ? 'steps' : 'points pt 7 ps 1.5'
# minR first, wide and light (the reads' blue as if half transparent over
# white): where maxW or the analytic bound lies on it (an element-wise op),
# all of them stay visible.
plot f using 1:2 skip 1 with @curve lw 7 lc rgb '#8fafe8' title 'minR(i): smallest input offset accessed after step i', \
	'' using 1:3 skip 1 with @curve lw 2 lc rgb '#d62728' title 'maxW(i): largest output end written up to step i' \
	@shifted @analytic @critical
