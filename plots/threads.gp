# threads.gp - which thread made which access: the access-pattern layout of
# memory.gp, one colour per thread id (reads and writes alike).
# Expects: plotsdir, datadir, series (stems t<tid>-in / t<tid>-out of the CSV
# files present; a header titled '-' stays out of the legend), decimated,
# and what common.gp and memory.gp expect.
load plotsdir.'/common.gp'
load plotsdir.'/memory.gp'
palette = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf'
tid(s) = int(s[2:strstrt(s, '-') - 1])
colour(s) = word(palette, tid(s) % words(palette) + 1)
plot for [s in series] datadir.'/'.s.'.csv' @style \
	title (columnhead(2) eq '-' ? '' : columnhead(2)) @band @pair
