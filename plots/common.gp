# common.gp - loaded first by every dmo plot template: the terminal (1200x800
# PNG through cairo, or SVG), the output file, the title (2 or 3 lines), CSV input,
# and the layout rules that keep every label readable:
# - noenhanced: layer names, op specs and O_s are shown as written (enhanced
#   text would turn the _ of O_s into a subscript, and eat ^ { } too);
# - the key below the plot has no frame (the frame's bottom line covered the
#   underscores of its last row) and half a line of padding above its first
#   row, so that it stays clear of the x-axis label;
# - a right margin wide enough for an x tick label centred on the plot's
#   right edge (templates that tag lines in that margin widen it);
# - no text over the data (plan.gp keeps its key in headroom above them):
#   lines are tagged in the margin, what a mark means is said in the key.
# Expects (from `dmo plot`, via -e): term, outfile, title, subtitle, and for
# a layer's figure detail (how its data were drawn), which goes after the
# subtitle, or below it when both together would not fit the width.
if (term eq 'svg') {
	set terminal svg size 1200,800 fixed noenhanced font 'sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1200,800 noenhanced font 'sans,10' background rgb 'white'
}
set output outfile
if (exists('detail')) {
	subtitle = subtitle.(strlen(subtitle) + strlen(detail) > 150 ? "\n" : '; ').detail
}
set title title."\n".subtitle
set datafile separator comma
set key outside below center horizontal Left reverse nobox spacing 1.2 height 1
set rmargin 6
set grid lc rgb '#dddddd'
set format x '%.0f'
set format y '%.0f'
