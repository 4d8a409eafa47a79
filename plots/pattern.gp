# pattern.gp - a layer's access pattern (as in the paper's figures 3 and 4):
# time against byte offset, one colour per access kind, input moved onto the
# output by the exact overlap (memory.gp).
# Expects: plotsdir, datadir, series (stems of the CSV files: ri wi ro wo,
# those present), decimated, and what common.gp and memory.gp expect.
load plotsdir.'/common.gp'
load plotsdir.'/memory.gp'
colour(s) = s eq 'ri' ? '#1f5fd0' : s eq 'wo' ? '#d62728' : s eq 'wi' ? '#2ca02c' : '#9467bd'
plot for [s in series] datadir.'/'.s.'.csv' @style title columnhead(2) @band @pair
