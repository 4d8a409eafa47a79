# threads.gp - which thread made which access: the access-pattern layout of
# memory.gp, one colour per thread id, input and output told apart by their
# marks as in every access figure (large translucent: input; small: output).
# Expects: plotsdir, datadir, inseries and outseries (stems t<tid>-in and
# t<tid>-out of the CSV files present), threads (the thread ids present),
# and what common.gp and memory.gp expect.
load plotsdir.'/common.gp'
load plotsdir.'/memory.gp'
palette = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf'
tidcolour(t) = word(palette, t % words(palette) + 1)
colour(s) = tidcolour(int(s[2:strstrt(s, '-') - 1]))
grey = '#555555'
eval 'plot '.sideplot('inseries', 'instyle', 'notitle').sideplot('outseries', 'outstyle', 'notitle'). \
	"for [t in threads] keyentry with boxes fs solid 0.9 noborder lc rgb tidcolour(int(t)) ". \
		"title 'thread '.t, ". \
	"keyentry @inkey lc rgb (decimated ? grey : translucent(grey)) title 'input, any thread', ". \
	"keyentry @outkey lc rgb grey title 'output, any thread'".extras
