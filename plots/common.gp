# common.gp - loaded first by every dmo plot template: the terminal (PNG or
# PDF through cairo, or SVG; width x height pixels, a PDF at 100 pixels per
# inch, fonts and lines times fontscale), the output file, the title (its
# lines fitting the width), CSV input, SI-prefixed axes, and the layout rules that keep every
# label readable:
# - noenhanced: layer names, op specs and O_s are shown as written (enhanced
#   text would turn the _ of O_s into a subscript, and eat ^ { } too);
# - the key below the plot has no frame (the frame's bottom line covered the
#   underscores of its last row) and half a line of padding above its first
#   row, so that it stays clear of the x-axis label;
# - a right margin wide enough for an x tick label centred on the plot's
#   right edge (templates that tag lines in that margin widen it);
# - no text over the data (plan.gp keeps its key in headroom above them):
#   lines are tagged in the margin, what a mark means is said in the key.
# Expects (from `dmo plot`, via -e): term, outfile, width, height, fontscale,
# title (its lines broken by dmo to fit the canvas: plot_gp_title) and
# titlelines.
# SVG takes the scale in its font size: gnuplot 5.4's svg terminal scales
# the glyphs by its fontscale option but not the room it leaves for them.
if (term eq 'svg') {
	set terminal svg size width,height fixed noenhanced font sprintf('sans,%g', 11 * fontscale) \
		linewidth fontscale background rgb 'white'
} else {
	# A PDF page of W/100 x H/100 inches with text the PNG's share of the
	# canvas: pngcairo's 10-point font is 10 pixels (72 per inch), 7.2
	# points at 100 per inch.
	if (term eq 'pdfcairo') {
		set terminal pdfcairo size width / 100.0, height / 100.0 noenhanced font 'sans,7.2' \
			fontscale fontscale linewidth fontscale background rgb 'white'
	} else {
		set terminal pngcairo size width,height noenhanced font 'sans,10' fontscale fontscale \
			linewidth fontscale background rgb 'white'
	}
}
set output outfile
set title title
set datafile separator comma
set key outside below center horizontal Left reverse nobox spacing 1.2 height 1
set rmargin 6
set grid lc rgb '#dddddd'
set format x '%.0f'
set format y '%.0f'
# SI prefixes on an axis up to TOP (bytes: unit 'B'): whole numbers below
# 1000, else one decimal and k, M, G.  Usage: eval si('y', top, 'B').
si(axis, top, unit) = sprintf("set format %s '%s'", axis, \
	abs(top) < 1000 ? '%.0f'.(unit eq '' ? '' : ' '.unit) : '%.1s %c'.unit)
