# common.gp - loaded first by every dmo plot template: the terminal (1200x800
# PNG through cairo, or SVG), the output file, the two-line title and CSV input.
# Expects (from `dmo plot`, via -e): term, outfile, title, subtitle.
# noenhanced: layer names and op specs are shown as written (_ ^ { } are common).
if (term eq 'svg') {
	set terminal svg size 1200,800 fixed noenhanced font 'sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1200,800 noenhanced font 'sans,10' background rgb 'white'
}
set output outfile
set title title."\n".subtitle
set datafile separator comma
set key outside below center horizontal box
set grid lc rgb '#dddddd'
set format x '%.0f'
set format y '%.0f'
