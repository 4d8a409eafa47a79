# pattern.gp - a layer's access pattern (as in the paper's figures 3 and 4):
# time against byte offset, one colour per access kind, input moved onto the
# output by the exact overlap (memory.gp).
# Expects: plotsdir, datadir, inseries and outseries (stems of the CSV files
# present: ri wi, ro wo), and what common.gp and memory.gp expect.
load plotsdir.'/common.gp'
load plotsdir.'/memory.gp'
colour(s) = s eq 'ri' ? '#1f5fd0' : s eq 'wo' ? '#d62728' : s eq 'wi' ? '#2ca02c' : '#9467bd'
kindtitle(s) = s eq 'ri' ? 'input reads R(I)' : s eq 'wi' ? 'input writes W(I)' : \
	s eq 'ro' ? 'output reads R(O)' : 'output writes W(O)'
# extras starts with a comma, which the last series element has already.
eval 'plot '.sideplot('inseries', 'instyle', 'title kindtitle(s)'). \
	sideplot('outseries', 'outstyle', 'title kindtitle(s)').extras[3:]
